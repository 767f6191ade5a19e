import { useCallback, useMemo, useState } from 'react';
import { makeStyles, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, Text } from '@fluentui/react-components';
import { Link } from 'react-router-dom';
import type { Item, ItemType } from '../api/types';
import { ItemTypeIcon } from './ItemTypeIcon';
import { LIVE_STATES, LiveStateBadge } from './LiveStateBadge';
import { ProvisioningCell } from './ProvisioningCell';
import { BACKEND_NAMES, BackendBadge } from './BackendLabel';

type Column = 'displayName' | 'itemType' | 'backend' | 'liveState' | 'provisioning' | 'source' | 'updatedAt';
// Below 1280 px the least needed columns give their room to the others, so no cell prints over its neighbour; Name
// and Provisioning share what the fixed columns leave.
const useStyles = makeStyles({
  narrow: { '@media (max-width: 1279px)': { display: 'none' } },
  cell: { overflow: 'hidden' },
});
type Hide = keyof ReturnType<typeof useStyles>;

const COLUMNS: Array<{ key: Column; label: string; width?: number | string; hide?: Hide }> = [
  { key: 'displayName', label: 'Name' },
  { key: 'itemType', label: 'Type', width: 96 },
  { key: 'backend', label: 'Lives in', width: 130, hide: 'narrow' },
  { key: 'liveState', label: 'Live state', width: 116 },
  { key: 'provisioning', label: 'Provisioning' },
  { key: 'source', label: 'Source', width: 120 },
  { key: 'updatedAt', label: 'Updated', width: 150, hide: 'narrow' },
];

const cellValue = (item: Item, col: Column, typeName: (id: string) => string, appName: (id: string) => string): string => {
  if (col === 'itemType') return typeName(item.itemType);
  if (col === 'provisioning') return item.provisioning?.status ?? '';
  if (col === 'liveState') return LIVE_STATES[item.liveState]?.label ?? item.liveState;
  if (col === 'source') return item.appId ? appName(item.appId) : 'created here';
  if (col === 'backend') return item.backend ? (BACKEND_NAMES[item.backend]?.label ?? item.backend) : '';
  return item[col];
};

/**
 * A workspace's items, sortable by any column (click or Enter on the header); `appName` gives the display name of the
 * app an item came from (its id until the names are read).
 */
export function ItemsTable({
  items,
  types,
  workspaceId,
  appName = (id) => id,
}: {
  items: Item[];
  types: ItemType[];
  workspaceId: string;
  appName?: (appId: string) => string;
}) {
  const s = useStyles();
  const [sort, setSort] = useState<{ col: Column; dir: 'ascending' | 'descending' }>({ col: 'displayName', dir: 'ascending' });
  const typeName = useCallback((id: string) => types.find((t) => t.id === id)?.displayName ?? id, [types]);
  const sorted = useMemo(() => {
    const value = (i: Item) => cellValue(i, sort.col, typeName, appName);
    const out = [...items].sort((a, b) => value(a).localeCompare(value(b)));
    return sort.dir === 'ascending' ? out : out.reverse();
  }, [items, sort, typeName, appName]);
  const toggle = (col: Column) => setSort((s) => ({ col, dir: s.col === col && s.dir === 'ascending' ? 'descending' : 'ascending' }));
  return (
    <Table sortable aria-label="Items" size="small" style={{ tableLayout: 'fixed' }}>
      <TableHeader>
        <TableRow>
          {COLUMNS.map((c) => (
            <TableHeaderCell
              key={c.key}
              style={{ width: c.width }}
              className={c.hide && s[c.hide]}
              sortDirection={sort.col === c.key ? sort.dir : undefined}
              onClick={() => toggle(c.key)}
            >
              {c.label}
            </TableHeaderCell>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {sorted.map((item) => (
          <TableRow key={item.id} data-testid="item-row">
            <TableCell>
              <span style={{ display: 'flex', alignItems: 'center', gap: 8, minWidth: 0 }}>
                <ItemTypeIcon itemType={item.itemType} title={typeName(item.itemType)} />
                <Link
                  to={`/workspaces/${workspaceId}/items/${item.id}`}
                  style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 }}
                  title={item.displayName}
                >
                  {item.displayName}
                </Link>
              </span>
            </TableCell>
            <TableCell>{typeName(item.itemType)}</TableCell>
            <TableCell className={s.narrow}>
              <BackendBadge backend={item.backend} />
            </TableCell>
            <TableCell>
              <LiveStateBadge state={item.liveState} />
            </TableCell>
            <TableCell className={s.cell}>
              <ProvisioningCell state={item.provisioning} />
            </TableCell>
            <TableCell className={s.cell} data-testid="item-source">
              {item.appId ? (
                <Link
                  to={`/apps/${item.appId}`}
                  title={item.appId}
                  style={{ display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
                >
                  {appName(item.appId)}
                </Link>
              ) : (
                <Text size={200} truncate wrap={false}>
                  created here
                </Text>
              )}
            </TableCell>
            <TableCell className={s.narrow}>{new Date(item.updatedAt).toLocaleString()}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
