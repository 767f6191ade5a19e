import { useState } from 'react';
import { Badge, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, Text } from '@fluentui/react-components';
import { useParams } from 'react-router-dom';
import { useInstallPermission } from '../api/access';
import { useApp } from '../api/catalog';
import { GuardedButton } from '../components/GuardedButton';
import { InstallDialog } from '../components/InstallDialog';
import { ItemTypeIcon } from '../components/ItemTypeIcon';
import { PageHeader } from '../components/PageHeader';
import { RequestState } from '../components/RequestState';

/** One app: description, each item with what installing does to it, and its thread. */
export default function AppPage() {
  const { appId = '' } = useParams();
  const app = useApp(appId);
  const [installing, setInstalling] = useState(false);
  const permission = useInstallPermission();
  const name = app.data?.displayName ?? appId;
  return (
    <>
      <PageHeader
        title={name}
        crumbs={[
          { to: '/apps', label: 'App catalog' },
          { to: `/apps/${appId}`, label: name },
        ]}
        actions={
          <GuardedButton appearance="primary" onClick={() => setInstalling(true)} disabled={!app.data} permission={permission}>
            Install
          </GuardedButton>
        }
      />
      <RequestState query={app} label="the app">
        {(a) => (
          <div style={{ display: 'grid', gap: 16, maxWidth: 1200 }}>
            <Text>{a.description}</Text>
            <Text size={200}>
              Version {a.version} · {a.totalItems} items · {a.liveItems} provisioned live · {a.storedItems} stored only
            </Text>
            <Table size="small" aria-label="What installing creates">
              <TableHeader>
                <TableRow>
                  <TableHeaderCell style={{ width: '24%' }}>Item</TableHeaderCell>
                  <TableHeaderCell style={{ width: 130 }}>Type</TableHeaderCell>
                  <TableHeaderCell style={{ width: 170 }}>Installs as</TableHeaderCell>
                  <TableHeaderCell>What happens</TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {a.items.map((i) => (
                  <TableRow key={i.key}>
                    <TableCell>
                      <span style={{ display: 'inline-flex', gap: 8, alignItems: 'center' }}>
                        <ItemTypeIcon itemType={i.itemType} />
                        {i.displayName}
                      </span>
                    </TableCell>
                    <TableCell>{i.itemType}</TableCell>
                    <TableCell>
                      <Badge appearance="tint" color={i.provisioning === 'live' ? 'brand' : 'subtle'}>
                        {i.provisioning === 'live' ? `live · ${i.backing ?? ''}` : 'stored only'}
                      </Badge>
                    </TableCell>
                    <TableCell>
                      {/* The action names long request paths: they break anywhere rather than widen the page. */}
                      <Text size={200} style={{ overflowWrap: 'anywhere' }}>
                        {i.action}
                      </Text>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            <Text weight="semibold">Thread</Text>
            <ul style={{ margin: 0 }}>
              {a.edges.map((e) => {
                const n = (key: string) => a.items.find((i) => i.key === key)?.displayName ?? key;
                return (
                  <li key={`${e.from} ${e.kind} ${e.to}`}>
                    <Text size={200}>
                      {n(e.from)} <em>{e.kind}</em> {n(e.to)}
                    </Text>
                  </li>
                );
              })}
            </ul>
          </div>
        )}
      </RequestState>
      {installing && <InstallDialog appId={appId} onClose={() => setInstalling(false)} />}
    </>
  );
}
