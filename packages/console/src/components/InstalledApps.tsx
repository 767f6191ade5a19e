import { useState } from 'react';
import { Badge, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, Text } from '@fluentui/react-components';
import { ArrowCircleUp20Regular, Delete20Regular } from '@fluentui/react-icons';
import { Link } from 'react-router-dom';
import { useCan } from '../api/access';
import type { InstalledApp, Workspace } from '../api/types';
import { GuardedButton } from './GuardedButton';
import { UninstallDialog } from './UninstallDialog';
import { UpgradeDialog } from './UpgradeDialog';

const STATUS_COLOR = {
  installed: 'success',
  partial: 'warning',
  upgrading: 'brand',
  uninstalling: 'brand',
  failed: 'danger',
} as const satisfies Record<InstalledApp['status'], string>;

const waiting = (app: InstalledApp) => app.items.filter((i) => i.status === 'remediation' || i.status === 'failed').length;

const busy = (app: InstalledApp) => app.status === 'upgrading' || app.status === 'uninstalling';

/**
 * The apps installed in a workspace: name, version (and the catalog's), status, items, the last job, and the app's
 * actions: "Upgrade to X" when the catalog has another version, and Uninstall (each opens its plan first).
 */
export function InstalledApps({ apps, workspace }: { apps: InstalledApp[]; workspace: Workspace }) {
  const workspaceId = workspace.id;
  const allow = useCan(workspace);
  // The dialog keeps the app it opened with: an uninstalled app leaves the list while its results are still shown.
  const [open, setOpen] = useState<{ kind: 'upgrade' | 'uninstall'; app: InstalledApp }>();
  return (
    <>
      {!apps.length && <Text>No app is installed in this workspace.</Text>}
      {apps.length > 0 && (
        <Table aria-label="Installed apps" size="small" style={{ tableLayout: 'fixed' }}>
          <TableHeader>
            <TableRow>
              {/* Shares of the width, not pixels: the columns fit a 1024 px window too (with the navigation beside). */}
              <TableHeaderCell>App</TableHeaderCell>
              <TableHeaderCell style={{ width: '16%' }}>Version</TableHeaderCell>
              <TableHeaderCell style={{ width: '12%' }}>Status</TableHeaderCell>
              <TableHeaderCell style={{ width: '14%' }}>Items</TableHeaderCell>
              <TableHeaderCell style={{ width: '18%' }}>Last job</TableHeaderCell>
              <TableHeaderCell style={{ width: '20%' }}>Actions</TableHeaderCell>
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
                    <Badge
                      appearance="outline"
                      color="informative"
                      style={{ marginLeft: 6 }}
                      title={`The catalog has version ${app.catalogVersion}`}
                    >
                      catalog {app.catalogVersion}
                    </Badge>
                  )}
                  {app.catalogVersion === null && (
                    <Badge appearance="outline" color="subtle" style={{ marginLeft: 6 }} title="The catalog no longer has this app">
                      not in the catalog
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
                <TableCell>
                  <span style={{ display: 'inline-flex', flexWrap: 'wrap', gap: 6, padding: '4px 0' }}>
                    {app.catalogVersion && app.catalogVersion !== app.version && (
                      <GuardedButton
                        size="small"
                        appearance="primary"
                        icon={<ArrowCircleUp20Regular />}
                        permission={allow('app.upgrade')}
                        disabled={busy(app)}
                        onClick={() => setOpen({ kind: 'upgrade', app })}
                      >
                        Upgrade to {app.catalogVersion}
                      </GuardedButton>
                    )}
                    <GuardedButton
                      size="small"
                      icon={<Delete20Regular />}
                      permission={allow('app.uninstall')}
                      disabled={busy(app)}
                      onClick={() => setOpen({ kind: 'uninstall', app })}
                      aria-label={`Uninstall ${app.displayName}`}
                    >
                      Uninstall
                    </GuardedButton>
                  </span>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {open?.kind === 'upgrade' && <UpgradeDialog app={open.app} workspaceId={workspaceId} onClose={() => setOpen(undefined)} />}
      {open?.kind === 'uninstall' && <UninstallDialog app={open.app} workspaceId={workspaceId} onClose={() => setOpen(undefined)} />}
    </>
  );
}
