import { useCallback } from 'react';
import { Button, Field, Input, Select, Text, Toolbar, tokens } from '@fluentui/react-components';
import { Add20Regular, Apps20Regular, Dismiss20Regular, DocumentBulletList20Regular, Search20Regular } from '@fluentui/react-icons';
import { useSearchParams } from 'react-router-dom';
import { useCan } from '../api/access';
import { useApps } from '../api/catalog';
import { useInstalledApps } from '../api/installed-apps';
import { useItems, useItemTypes } from '../api/items';
import type { Workspace } from '../api/types';
import { GuardedButton } from './GuardedButton';
import { ItemsTable } from './ItemsTable';
import { RequestState } from './RequestState';

const box = {
  display: 'grid',
  justifyItems: 'start',
  gap: 8,
  padding: 24,
  border: `1px dashed ${tokens.colorNeutralStroke1}`,
  borderRadius: tokens.borderRadiusMedium,
} as const;

/**
 * The items section of a workspace: filters (kept in the URL), the count, the table with app names, an empty
 * workspace's next actions, and a "no match" state whose Clear filters brings the items back.
 */
export function WorkspaceItems({
  workspace,
  onCreateItem,
  onInstallApp,
}: {
  workspace: Workspace;
  onCreateItem: () => void;
  onInstallApp: () => void;
}) {
  const items = useItems(workspace.id);
  const types = useItemTypes();
  const installed = useInstalledApps(workspace.id);
  const catalog = useApps();
  const allow = useCan(workspace);
  const [params, setParams] = useSearchParams();
  const text = params.get('q') ?? '';
  const type = params.get('type') ?? '';
  const setFilter = (k: string, v: string) =>
    setParams(
      (p) => {
        if (v) p.set(k, v);
        else p.delete(k);
        return p;
      },
      { replace: true },
    );
  const clearFilters = () =>
    setParams(
      (p) => {
        p.delete('q');
        p.delete('type');
        return p;
      },
      { replace: true },
    );
  // The installed app's name (as installed), else the catalog's, else the id: an app removed from the catalog keeps one.
  const appName = useCallback(
    (id: string) => installed.data?.find((a) => a.appId === id)?.displayName ?? catalog.data?.find((a) => a.id === id)?.displayName ?? id,
    [installed.data, catalog.data],
  );
  const createItem = allow('item.create');
  const installApp = allow('app.install');

  return (
    <section aria-labelledby="items-heading">
      <Text id="items-heading" weight="semibold" as="h2" block style={{ margin: '0 0 4px' }}>
        Items
      </Text>
      <Toolbar aria-label="Filter items" style={{ gap: 12, padding: '4px 0 12px', alignItems: 'end', flexWrap: 'wrap' }}>
        <Field label="Filter by name">
          <Input
            contentBefore={<Search20Regular />}
            value={text}
            onChange={(_, d) => setFilter('q', d.value)}
            placeholder="Name contains…"
          />
        </Field>
        <Field label="Type">
          <Select value={type} onChange={(_, d) => setFilter('type', d.value)}>
            <option value="">All types</option>
            {types.data?.map((t) => (
              <option key={t.id} value={t.id}>
                {t.displayName}
              </option>
            ))}
          </Select>
        </Field>
      </Toolbar>
      <RequestState query={items} label="items">
        {(list) => {
          const shown = list.filter((i) => (!type || i.itemType === type) && i.displayName.toLowerCase().includes(text.toLowerCase()));
          if (!list.length)
            return (
              <div style={box} data-testid="items-empty">
                <DocumentBulletList20Regular aria-hidden style={{ color: tokens.colorNeutralForeground3 }} />
                <Text weight="semibold">This workspace has no items</Text>
                <Text>
                  {createItem.ok || installApp.ok
                    ? 'Create an item here, or install an app from the catalog: its items appear in this table.'
                    : 'Items appear here when someone with the Contributor role creates one or installs an app.'}
                </Text>
                <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
                  {createItem.ok && (
                    <GuardedButton appearance="primary" icon={<Add20Regular />} onClick={onCreateItem} permission={createItem}>
                      Create an item
                    </GuardedButton>
                  )}
                  {installApp.ok && (
                    <GuardedButton icon={<Apps20Regular />} onClick={onInstallApp} permission={installApp}>
                      Install an app
                    </GuardedButton>
                  )}
                </div>
              </div>
            );
          return (
            <>
              <Text size={200} block style={{ marginBottom: 4 }} aria-live="polite">
                {shown.length} of {list.length} items
              </Text>
              {shown.length ? (
                <ItemsTable items={shown} types={types.data ?? []} workspaceId={workspace.id} appName={appName} />
              ) : (
                <div style={box} data-testid="items-no-match">
                  <Text weight="semibold">No items match the filters</Text>
                  <Text>
                    {list.length} {list.length === 1 ? 'item is' : 'items are'} hidden by
                    {text ? ` the name filter “${text}”` : ''}
                    {text && type ? ' and' : ''}
                    {type ? ` the type ${types.data?.find((t) => t.id === type)?.displayName ?? type}` : ''}.
                  </Text>
                  <Button icon={<Dismiss20Regular />} onClick={clearFilters}>
                    Clear filters
                  </Button>
                </div>
              )}
            </>
          );
        }}
      </RequestState>
    </section>
  );
}
