import { MessageBar, MessageBarBody, MessageBarTitle, Tab, TabList } from '@fluentui/react-components';
import { ShieldKeyhole24Regular } from '@fluentui/react-icons';
import { useSearchParams } from 'react-router-dom';
import { useIsAdmin } from '../api/identity';
import { DiagnosePanel } from '../components/identity/DiagnosePanel';
import { FixesPanel } from '../components/identity/FixesPanel';
import { IncidentsPanel } from '../components/identity/IncidentsPanel';
import { JournalPanel } from '../components/identity/JournalPanel';
import { ProbePanel } from '../components/identity/ProbePanel';
import { SecretsPanel } from '../components/identity/SecretsPanel';
import { SignalsPanel } from '../components/identity/SignalsPanel';
import { TokenPanel } from '../components/identity/TokenPanel';
import { PageHeader } from '../components/PageHeader';

const TABS = {
  signals: { label: 'Signals', Panel: SignalsPanel },
  diagnose: { label: 'Diagnose', Panel: DiagnosePanel },
  token: { label: 'Token', Panel: TokenPanel },
  probes: { label: 'Probes', Panel: ProbePanel },
  fixes: { label: 'Firewall and roles', Panel: FixesPanel },
  journal: { label: 'Change journal', Panel: JournalPanel },
  secrets: { label: 'Secrets', Panel: SecretsPanel },
  incidents: { label: 'Incidents', Panel: IncidentsPanel },
} as const;
type TabName = keyof typeof TABS;

/** Identity operations for admins: what failed, why, the fix with its rollback, secrets and incidents. The tab is in the address. */
export default function IdentityPage() {
  const isAdmin = useIsAdmin();
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const tab: TabName = asked && asked in TABS ? (asked as TabName) : 'signals';
  if (!isAdmin) {
    return (
      <>
        <PageHeader title="Identity operations" />
        <MessageBar intent="error" layout="multiline" role="alert" data-testid="identity-refused">
          <MessageBarBody>
            <MessageBarTitle>Admins only</MessageBarTitle>
            Identity operations need the <code>admin</code> scope, and this session does not hold it. Sign in with an admin token to
            diagnose, fix and roll back identity failures.
          </MessageBarBody>
        </MessageBar>
      </>
    );
  }
  const { Panel } = TABS[tab];
  return (
    <>
      <PageHeader title="Identity operations" icon={<ShieldKeyhole24Regular aria-hidden />} />
      <TabList
        selectedValue={tab}
        aria-label="Identity operations"
        style={{ marginBottom: 16, flexWrap: 'wrap' }}
        onTabSelect={(_, d) =>
          setParams((p) => {
            // A tab change keeps the platform workspace, nothing else of the previous tab.
            const next = new URLSearchParams({ tab: String(d.value) });
            if (p.get('ws')) next.set('ws', p.get('ws')!);
            return next;
          })
        }
      >
        {Object.entries(TABS).map(([name, t]) => (
          <Tab key={name} value={name} id={`identity-tab-${name}`}>
            {t.label}
          </Tab>
        ))}
      </TabList>
      <section role="tabpanel" aria-labelledby={`identity-tab-${tab}`} data-testid={`identity-panel-${tab}`}>
        <Panel />
      </section>
    </>
  );
}
