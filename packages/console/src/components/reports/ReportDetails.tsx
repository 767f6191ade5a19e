import { useState } from 'react';
import { Button, Card, CardHeader, Field, Input, Link, makeStyles, Tab, TabList, Text, tokens } from '@fluentui/react-components';
import { Copy20Regular, Delete20Regular, Wand20Regular, Key20Regular, Open20Regular } from '@fluentui/react-icons';
import { useNavigate } from 'react-router-dom';
import { useCanOn } from '../../api/access';
import { createEmbedToken, useReport, useReportingWorkspace, useReportMutations, type PaginatedReport } from '../../api/reports';
import { GuardedButton } from '../GuardedButton';
import { ErrorMessage, RequestState } from '../RequestState';
import { FormDialog } from '../FormDialog';
import { DefinitionEditor } from './DefinitionEditor';
import { ExportPanel } from './ExportPanel';
import { DatasourcesPanel } from './DatasourcesPanel';

const useStyles = makeStyles({
  root: { display: 'grid', gap: '12px', minWidth: 0 },
  meta: { display: 'grid', gridTemplateColumns: '160px 1fr', gap: '6px 12px', fontSize: tokens.fontSizeBase300 },
  key: { color: tokens.colorNeutralForeground3 },
  value: { overflowWrap: 'anywhere' },
  actions: { display: 'flex', gap: '8px', flexWrap: 'wrap' },
});

/** One report: metadata and actions, the RDL, export with parameters, and data sources, each on a tab. */
export function ReportDetails({
  workspaceId,
  reportId,
  onGone,
  onSelect,
}: {
  workspaceId: string;
  reportId: string;
  onGone: () => void;
  onSelect: (id: string) => void;
}) {
  const s = useStyles();
  const report = useReport(workspaceId, reportId);
  const [tab, setTab] = useState('overview');
  return (
    <section className={s.root} aria-label="Report">
      <RequestState query={report} label="the report">
        {(r) => (
          <>
            <TabList selectedValue={tab} onTabSelect={(_, d) => setTab(d.value as string)}>
              <Tab value="overview">Overview</Tab>
              <Tab value="definition">Definition (RDL)</Tab>
              <Tab value="export">Parameters and export</Tab>
              <Tab value="datasources">Data sources</Tab>
            </TabList>
            {tab === 'overview' && <Overview report={r} onGone={onGone} onSelect={onSelect} />}
            {tab === 'definition' && <DefinitionEditor workspaceId={workspaceId} reportId={reportId} />}
            {tab === 'export' && <ExportPanel workspaceId={workspaceId} report={r} />}
            {tab === 'datasources' && <DatasourcesPanel workspaceId={workspaceId} reportId={reportId} />}
          </>
        )}
      </RequestState>
    </section>
  );
}

function Overview({ report, onGone, onSelect }: { report: PaginatedReport; onGone: () => void; onSelect: (id: string) => void }) {
  const s = useStyles();
  const m = useReportMutations(report.workspaceId);
  const allow = useCanOn(report.workspaceId);
  const [dialog, setDialog] = useState<'clone' | 'delete' | null>(null);
  const [cloneName, setCloneName] = useState(`${report.name} (copy)`);
  const [token, setToken] = useState<{ token: string; expiration: string } | null>(null);
  const [tokenError, setTokenError] = useState<unknown>(null);
  const where = useReportingWorkspace(report.workspaceId).data;
  const navigate = useNavigate();
  const designerHref = `/reports/design?workspace=${encodeURIComponent(report.workspaceId)}&report=${encodeURIComponent(report.id)}`;
  const rows: Array<[string, string]> = [
    ['Name', report.name],
    ['Report type', report.reportType],
    ['Format', report.format ?? '—'],
    ['Source semantic model', report.datasetId ?? 'none (the report has its own data sources)'],
    ['Modified', report.modifiedDateTime ? new Date(report.modifiedDateTime).toLocaleString() : 'not reported by the reporting service'],
    ['Modified by', report.modifiedBy ?? 'not reported by the reporting service'],
    ['Report id', report.id],
    [
      'Reporting workspace',
      where?.source === 'tenant-default'
        ? `${report.groupId} (the tenant’s default: this workspace has no platform binding)`
        : where?.source === 'binding'
          ? `${report.groupId} (the workspace’s platform binding)`
          : report.groupId,
    ],
  ];
  const embed = async () => {
    setTokenError(null);
    try {
      setToken(await createEmbedToken(report.workspaceId, report.id, { lifetimeInMinutes: 60 }));
    } catch (err) {
      setTokenError(err);
    }
  };
  return (
    <>
      <Card aria-label="Metadata">
        <CardHeader
          header={
            <Text weight="semibold" size={400}>
              {report.name}
            </Text>
          }
          description="Metadata from the reporting service"
        />
        <div className={s.meta} data-testid="report-metadata">
          {rows.map(([k, v]) => (
            <span key={k} style={{ display: 'contents' }}>
              <span className={s.key}>{k}</span>
              <span className={s.value}>{v}</span>
            </span>
          ))}
          <span className={s.key}>Web address</span>
          <Link className={s.value} href={report.webUrl} target="_blank" rel="noreferrer">
            {report.webUrl}
          </Link>
          <span className={s.key}>Embed address</span>
          <span className={s.value}>{report.embedUrl ?? '—'}</span>
        </div>
        <div className={s.actions}>
          <Button
            as="a"
            href={designerHref}
            icon={<Wand20Regular />}
            appearance="primary"
            onClick={(e) => {
              e.preventDefault();
              navigate(designerHref);
            }}
          >
            Open in the designer
          </Button>
          <Button as="a" href={report.webUrl} target="_blank" rel="noreferrer" icon={<Open20Regular />}>
            Open in the reporting service
          </Button>
          <GuardedButton icon={<Copy20Regular />} onClick={() => setDialog('clone')} permission={allow('report.clone')}>
            Clone
          </GuardedButton>
          <Button icon={<Key20Regular />} onClick={() => void embed()}>
            Embed token
          </Button>
          <GuardedButton icon={<Delete20Regular />} onClick={() => setDialog('delete')} permission={allow('report.delete')}>
            Delete
          </GuardedButton>
        </div>
        <Text size={200} className={s.key}>
          Design the report in the designer (surface, data, groups, parameters, run and publish), or edit its RDL on the Definition tab; the
          designer also hands the .rdl to the desktop Report Builder and takes an edited one back.
        </Text>
      </Card>
      {tokenError ? <ErrorMessage error={tokenError} title="No embed token" /> : null}
      {token && (
        <Card aria-label="Embed token">
          <Text weight="semibold">Embed token (view), valid until {new Date(token.expiration).toLocaleString()}</Text>
          <Field label="Token (give it to the embedding page with the embed address)">
            <Input readOnly value={token.token} data-testid="embed-token" onFocus={(e) => e.currentTarget.select()} />
          </Field>
        </Card>
      )}
      <FormDialog
        open={dialog === 'clone'}
        onClose={() => setDialog(null)}
        title={`Clone ${report.name}`}
        submitLabel="Clone"
        pending={m.clone.isPending}
        error={m.clone.error}
        disabled={!cloneName.trim()}
        onSubmit={() =>
          m.clone.mutate(
            { reportId: report.id, name: cloneName.trim() },
            {
              onSuccess: (r) => {
                setDialog(null);
                onSelect(r.id);
              },
            },
          )
        }
      >
        <Field label="Name of the copy" required>
          <Input value={cloneName} onChange={(_, d) => setCloneName(d.value)} />
        </Field>
      </FormDialog>
      <FormDialog
        open={dialog === 'delete'}
        onClose={() => setDialog(null)}
        title={`Delete ${report.name}?`}
        submitLabel="Delete"
        danger
        pending={m.remove.isPending}
        error={m.remove.error}
        onSubmit={() =>
          m.remove.mutate(report.id, {
            onSuccess: () => {
              setDialog(null);
              onGone();
            },
          })
        }
      >
        <Text>The report is deleted in the reporting service, for everyone who uses it. This cannot be undone.</Text>
      </FormDialog>
    </>
  );
}
