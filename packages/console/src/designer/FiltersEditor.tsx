import { Button, Field, makeStyles, Select } from '@fluentui/react-components';
import { Add20Regular, Delete20Regular } from '@fluentui/react-icons';
import { ExpressionField } from './ExpressionEditor';
import type { ExpressionContext } from './model/expression-check';
import type { FilterSpec } from './model/group-props';

const useStyles = makeStyles({
  filter: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) 150px minmax(0, 1fr) auto', gap: '6px', alignItems: 'end' },
});

/** The filter operators of RDL. */
export const OPERATORS = [
  'Equal',
  'NotEqual',
  'GreaterThan',
  'GreaterThanOrEqual',
  'LessThan',
  'LessThanOrEqual',
  'Like',
  'In',
  'Between',
  'TopN',
  'BottomN',
];

/** Filters of a data set or a group: expression, operator, value (an expression too: =Parameters!X.Value). */
export function FiltersEditor({
  filters,
  fallback,
  context,
  onChange,
}: {
  filters: FilterSpec[];
  /** The expression a new filter starts with. */
  fallback: string;
  context: ExpressionContext;
  onChange: (filters: FilterSpec[]) => void;
}) {
  const s = useStyles();
  const put = (i: number, change: Partial<FilterSpec>) => onChange(filters.map((y, j) => (j === i ? { ...y, ...change } : y)));
  return (
    <>
      {filters.map((f, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows edited in place: a row's position is what names it
        <div key={`f${i}`} className={s.filter}>
          <ExpressionField
            label={`Filter ${i + 1} expression`}
            value={f.expression}
            context={context}
            onCommit={(v) => put(i, { expression: v })}
          />
          <Field label={`Filter ${i + 1} operator`}>
            <Select value={f.operator} onChange={(_, d) => put(i, { operator: d.value })}>
              {OPERATORS.map((o) => (
                <option key={o}>{o}</option>
              ))}
            </Select>
          </Field>
          <ExpressionField
            label={`Filter ${i + 1} value`}
            value={f.values[0] ?? ''}
            context={context}
            onCommit={(v) => put(i, { values: [v, ...f.values.slice(1)] })}
          />
          <Button
            icon={<Delete20Regular />}
            aria-label={`Remove filter ${i + 1}`}
            onClick={() => onChange(filters.filter((_, j) => j !== i))}
          />
        </div>
      ))}
      <Button icon={<Add20Regular />} onClick={() => onChange([...filters, { expression: fallback, operator: 'Equal', values: [''] }])}>
        Add a filter
      </Button>
    </>
  );
}
