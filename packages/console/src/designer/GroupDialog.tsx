import { useState } from 'react';
import { Button, Field, Input, makeStyles, Select, Text } from '@fluentui/react-components';
import { Add20Regular, Delete20Regular } from '@fluentui/react-icons';
import { FormDialog } from '../components/FormDialog';
import { ExpressionField } from './ExpressionEditor';
import type { ExpressionContext } from './model/expression-check';
import type { FilterSpec, SortExpression } from './model/group-props';
import { FiltersEditor } from './FiltersEditor';

const useStyles = makeStyles({
  row: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) 130px auto', gap: '6px', alignItems: 'end' },
});

export interface GroupForm {
  name: string;
  expression: string;
  sorts: SortExpression[];
  filters: FilterSpec[];
}

/** A group's properties: its name, what it groups on, its sort and its filters. */
export function GroupDialog({
  title,
  initial,
  context,
  nameEditable,
  onClose,
  onSave,
}: {
  title: string;
  initial: GroupForm;
  context: ExpressionContext;
  nameEditable: boolean;
  onClose: () => void;
  onSave: (g: GroupForm) => void;
}) {
  const s = useStyles();
  const [g, setG] = useState(initial);
  const set = (change: Partial<GroupForm>) => setG((old) => ({ ...old, ...change }));
  return (
    <FormDialog
      open
      onClose={onClose}
      title={title}
      submitLabel="OK"
      disabled={!g.expression.trim() || (nameEditable && !g.name.trim())}
      onSubmit={() => onSave(g)}
    >
      {nameEditable && (
        <Field label="Group name" required>
          <Input value={g.name} onChange={(_, d) => set({ name: d.value })} />
        </Field>
      )}
      <Field label="Group on (a field)">
        <Select
          aria-label="Group on field"
          value={/^=Fields!(\w+)\.Value$/.exec(g.expression)?.[1] ?? ''}
          onChange={(_, d) =>
            d.value &&
            set({
              expression: `=Fields!${d.value}.Value`,
              sorts: g.sorts.length ? g.sorts : [{ value: `=Fields!${d.value}.Value`, direction: 'Ascending' }],
            })
          }
        >
          <option value="">{context.fields.length ? 'Choose a field…' : 'No fields in scope'}</option>
          {context.fields.map((f) => (
            <option key={f}>{f}</option>
          ))}
        </Select>
      </Field>
      <ExpressionField label="Group expression" value={g.expression} context={context} onCommit={(v) => set({ expression: v })} />
      <Text weight="semibold">Sort</Text>
      {g.sorts.map((x, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows edited in place: a row's position is what names it
        <div key={`s${i}`} className={s.row}>
          <ExpressionField
            label={`Sort by ${i + 1}`}
            value={x.value}
            context={context}
            onCommit={(v) => set({ sorts: g.sorts.map((y, j) => (j === i ? { ...y, value: v } : y)) })}
          />
          <Field label="Order">
            <Select
              value={x.direction}
              onChange={(_, d) =>
                set({ sorts: g.sorts.map((y, j) => (j === i ? { ...y, direction: d.value as SortExpression['direction'] } : y)) })
              }
            >
              <option value="Ascending">A to Z</option>
              <option value="Descending">Z to A</option>
            </Select>
          </Field>
          <Button
            icon={<Delete20Regular />}
            aria-label={`Remove sort ${i + 1}`}
            onClick={() => set({ sorts: g.sorts.filter((_, j) => j !== i) })}
          />
        </div>
      ))}
      <Button icon={<Add20Regular />} onClick={() => set({ sorts: [...g.sorts, { value: g.expression, direction: 'Ascending' }] })}>
        Add a sort
      </Button>
      <Text weight="semibold">Filters</Text>
      <FiltersEditor filters={g.filters} fallback={g.expression} context={context} onChange={(filters) => set({ filters })} />
    </FormDialog>
  );
}
