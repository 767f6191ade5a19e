import { useState } from 'react';
import { Field, Select, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, Text } from '@fluentui/react-components';
import { Add20Regular, Delete20Regular } from '@fluentui/react-icons';
import type { Permission } from '../api/access';
import { useEdgeMutations } from '../api/thread';
import { EDGE_KINDS, type Item, type ThreadEdge } from '../api/types';
import { GuardedButton } from './GuardedButton';
import { ErrorMessage } from './RequestState';

/** Add an edge between two items, and list the edges with a Remove button each. */
export function EdgeEditor({
  workspaceId,
  items,
  edges,
  permission,
}: {
  workspaceId: string;
  items: Item[];
  edges: ThreadEdge[];
  permission: Permission;
}) {
  const { add, remove } = useEdgeMutations(workspaceId);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [kind, setKind] = useState<string>('feeds');
  const name = (id: string) => items.find((i) => i.id === id)?.displayName ?? id;
  const sorted = [...items].sort((a, b) => a.displayName.localeCompare(b.displayName));
  const options = sorted.map((i) => (
    <option key={i.id} value={i.id}>
      {i.displayName} ({i.itemType})
    </option>
  ));
  return (
    <section aria-label="Edit lineage" style={{ display: 'grid', gap: 12 }}>
      <form
        style={{ display: 'flex', gap: 8, alignItems: 'end', flexWrap: 'wrap' }}
        onSubmit={(e) => {
          e.preventDefault();
          add.mutate(
            { fromItemId: from, toItemId: to, kind },
            {
              onSuccess: () => {
                setFrom('');
                setTo('');
              },
            },
          );
        }}
      >
        <Field label="From">
          <Select value={from} onChange={(_, d) => setFrom(d.value)}>
            <option value="">Choose an item…</option>
            {options}
          </Select>
        </Field>
        <Field label="Kind">
          <Select value={kind} onChange={(_, d) => setKind(d.value)}>
            {EDGE_KINDS.map((k) => (
              <option key={k}>{k}</option>
            ))}
          </Select>
        </Field>
        <Field label="To">
          <Select value={to} onChange={(_, d) => setTo(d.value)}>
            <option value="">Choose an item…</option>
            {options}
          </Select>
        </Field>
        <GuardedButton
          type="submit"
          appearance="primary"
          icon={<Add20Regular />}
          disabled={!from || !to || add.isPending}
          permission={permission}
        >
          Add edge
        </GuardedButton>
      </form>
      {!permission.ok && (
        <Text size={200} data-testid="edge-hint">
          {permission.reason}.
        </Text>
      )}
      {add.isError && <ErrorMessage error={add.error} title="The edge was not added" />}
      {remove.isError && <ErrorMessage error={remove.error} title="The edge was not removed" />}
      {edges.length === 0 ? (
        <Text>No edges yet.</Text>
      ) : (
        <Table size="extra-small" aria-label="Edges">
          <TableHeader>
            <TableRow>
              <TableHeaderCell>From</TableHeaderCell>
              <TableHeaderCell style={{ width: 120 }}>Kind</TableHeaderCell>
              <TableHeaderCell>To</TableHeaderCell>
              <TableHeaderCell style={{ width: 100 }}>Source</TableHeaderCell>
              <TableHeaderCell style={{ width: 60 }}>
                <span className="sr-only">Remove</span>
              </TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {edges.map((e) => (
              <TableRow key={e.id}>
                <TableCell>{name(e.fromItemId)}</TableCell>
                <TableCell>{e.kind}</TableCell>
                <TableCell>{name(e.toItemId)}</TableCell>
                <TableCell>{e.source}</TableCell>
                <TableCell>
                  <GuardedButton
                    size="small"
                    appearance="subtle"
                    permission={permission}
                    icon={<Delete20Regular />}
                    aria-label={`Remove ${name(e.fromItemId)} ${e.kind} ${name(e.toItemId)}`}
                    disabled={remove.isPending}
                    onClick={() => remove.mutate(e.id)}
                  />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </section>
  );
}
