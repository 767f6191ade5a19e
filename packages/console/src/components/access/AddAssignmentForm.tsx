import { useState } from 'react';
import { Button, Combobox, Field, Option, Select, Text } from '@fluentui/react-components';
import { PersonAdd20Regular } from '@fluentui/react-icons';
import type { Role } from '../../api/access';
import { type Principal, usePrincipals } from '../../api/role-assignments';

const describe = (p: Principal) => `${p.displayName || p.id} (${p.type === 'Group' ? 'group' : (p.email ?? 'user')})`;

/**
 * Add a role assignment: search the users and groups the service knows, pick one, pick a role the caller may grant,
 * Add. Principals that already hold a role here are shown but not offered (their role is changed in the list).
 */
export function AddAssignmentForm({
  roles,
  assigned,
  pending,
  onAdd,
}: {
  roles: Role[];
  assigned: ReadonlySet<string>;
  pending: boolean;
  onAdd: (principal: { type: Principal['type']; id: string }, role: Role, done: () => void) => void;
}) {
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<Principal>();
  // Typing opens the list of matches at once (the combobox alone would wait for an arrow key).
  const [open, setOpen] = useState(false);
  const [role, setRole] = useState<Role>(roles.includes('Contributor') ? 'Contributor' : (roles[0] ?? 'Viewer'));
  const principals = usePrincipals(search.trim(), true);
  const found = principals.data ?? [];
  return (
    <form
      aria-label="Add a role assignment"
      style={{ display: 'grid', gap: 8, borderTop: '1px solid var(--colorNeutralStroke2)', paddingTop: 12 }}
      onSubmit={(e) => {
        e.preventDefault();
        if (!picked) return;
        onAdd({ type: picked.type, id: picked.id }, role, () => {
          setPicked(undefined);
          setSearch('');
        });
      }}
    >
      <Text weight="semibold" as="h3" style={{ margin: 0 }}>
        Add someone
      </Text>
      <div style={{ display: 'flex', gap: 8, alignItems: 'end', flexWrap: 'wrap' }}>
        <Field label="User or group" style={{ flexGrow: 1, minWidth: 260 }} hint="Search by name, email or id">
          <Combobox
            freeform
            placeholder="Search users and groups…"
            value={picked ? describe(picked) : search}
            selectedOptions={picked ? [picked.id] : []}
            open={open}
            onOpenChange={(_, d) => setOpen(d.open)}
            onChange={(e) => {
              setPicked(undefined);
              setSearch(e.target.value);
              setOpen(true);
            }}
            onOptionSelect={(_, d) => {
              setPicked(found.find((p) => p.id === d.optionValue));
              setOpen(false);
            }}
          >
            {found.length === 0 && !principals.isPending && (
              <Option value="" text="" disabled>
                {principals.isError ? `The search failed: ${(principals.error as Error).message}` : 'Nobody matches'}
              </Option>
            )}
            {found.map((p) => (
              <Option key={p.id} value={p.id} text={describe(p)} disabled={assigned.has(p.id)}>
                {describe(p)}
                {assigned.has(p.id) ? ' · already has a role' : ''}
              </Option>
            ))}
          </Combobox>
        </Field>
        <Field label="Role">
          <Select value={role} onChange={(_, d) => setRole(d.value as Role)}>
            {roles.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </Select>
        </Field>
        <Button type="submit" appearance="primary" icon={<PersonAdd20Regular />} disabled={!picked || pending}>
          {pending ? 'Adding…' : 'Add'}
        </Button>
      </div>
    </form>
  );
}
