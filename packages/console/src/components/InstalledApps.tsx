import { Badge, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, Text } from '@fluentui/react-components';
import { Link } from 'react-router-dom';
import type { InstalledApp } from '../api/types';

const STATUS_COLOR = {
  installed: 'success',
  partial: 'warning',
  upgrading: 'brand',
  uninstalling: 'brand',
  failed: 'danger',
} as const satisfies Record<InstalledApp['status'], string>;

const waiting = (app: InstalledApp) => app.items.filter((i) => i.status === 'remediation' || i.status === 'failed').length;

/** The apps installed in a workspace: name, version (and a newer catalog version), status, items and the last job. */
export function InstalledApps({ apps }: { apps: InstalledApp[] }) {
  if (!apps.length) return <Text>No app is installed in this workspace.</Text>;
  return (
    <Table aria-label="Installed apps" size="small" style={{ tableLayout: 'fixed' }}>
      <TableHeader>
        <TableRow>
          <TableHeaderCell style={{ width: '32%' }}>App</TableHeaderCell>
          <TableHeaderCell style={{ width: 150 }}>Version</TableHeaderCell>
          <TableHeaderCell style={{ width: 120 }}>Status</TableHeaderCell>
          <TableHeaderCell>Items</TableHeaderCell>
          <TableHeaderCell style={{ width: 170 }}>Last job</TableHeaderCell>
        </TableRow>
      </TableHeader>
      <TableBody>
        {apps.map((app) => (
          <TableRow key={app.appId} data-testid="installed-app">
            <TableCell>
              <Link to={`/apps/${app.appId}`}>{app.displayName}</Link>
            </TableCell>
            <TableCell data-testid="installed-app-version">
              {app.version}
              {app.catalogVersion && app.catalogVersion !== app.version && (
                <Badge appearance="outline" color="informative" style={{ marginLeft: 6 }} title="The catalog has a newer version">
                  {app.catalogVersion} available
                </Badge>
              )}
            </TableCell>
            <TableCell>
              <Badge appearance="tint" color={STATUS_COLOR[app.status]} data-testid="installed-app-status">
                {app.status}
              </Badge>
            </TableCell>
            <TableCell data-testid="installed-app-items">
              {app.items.length} items{waiting(app) ? ` · ${waiting(app)} to review` : ''}
            </TableCell>
            <TableCell>
              <Link to={`/jobs/${app.lastJobId}`} data-testid="installed-app-job">
                {new Date(app.updatedAt).toLocaleString()}
              </Link>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
