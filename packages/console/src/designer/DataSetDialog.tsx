import { useState } from 'react';
import { Button, Field, Input, makeStyles, Select, Text } from '@fluentui/react-components';
import { Add20Regular, Delete20Regular } from '@fluentui/react-icons';
import { FormDialog } from '../components/FormDialog';
import { CodeEditor } from '../editors/code';
import type { DataSetInfo, DataSourceInfo } from './model/data';
import type { ExpressionContext } from './model/expression-check';
import type { FilterSpec } from './model/group-props';
import { FiltersEditor } from './FiltersEditor';

const useStyles = makeStyles({
  field: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1.4fr) auto', gap: '6px', alignItems: 'end' },
});

export interface DataSetForm {
  name: string;
  dataSource: string;
  commandText: string;
  fields: Array<{ name: string; dataField: string; original?: string }>;
  filters: FilterSpec[];
}

/** A data set's data source, query and fields (a field reads a query column, or is calculated when its source starts with =). */
export function DataSetDialog({
  initial,
  sources,
  isNew,
  context,
  onClose,
  onSave,
}: {
  initial: DataSetForm;
  sources: DataSourceInfo[];
  isNew: boolean;
  context: ExpressionContext;
  onClose: () => void;
  onSave: (f: DataSetForm) => void;
}) {
  const s = useStyles();
  const [f, setF] = useState(initial);
  const set = (change: Partial<DataSetForm>) => setF((old) => ({ ...old, ...change }));
  const setField = (i: number, change: Partial<DataSetForm['fields'][number]>) =>
    set({ fields: f.fields.map((x, j) => (j === i ? { ...x, ...change } : x)) });
  return (
    <FormDialog
      open
      onClose={onClose}
      title={isNew ? 'New data set' : `Data set ${initial.name}`}
      submitLabel="OK"
      disabled={!f.name.trim() || !f.dataSource}
      onSubmit={() => onSave(f)}
    >
      <Field label="Name" required>
        <Input value={f.name} disabled={!isNew} onChange={(_, d) => set({ name: d.value })} />
      </Field>
      <Field label="Data source" required>
        <Select value={f.dataSource} onChange={(_, d) => set({ dataSource: d.value })}>
          <option value="">Choose…</option>
          {sources.map((x) => (
            <option key={x.name}>{x.name}</option>
          ))}
        </Select>
      </Field>
      <Text weight="semibold">Query</Text>
      <CodeEditor
        label="Query text"
        language={sources.find((x) => x.name === f.dataSource)?.provider === 'SQL' ? 'sql' : 'text'}
        value={f.commandText}
        onChange={(v) => set({ commandText: v })}
        minHeight={120}
        maxHeight={240}
      />
      <Text weight="semibold">Fields</Text>
      {f.fields.map((x, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows edited in place: a row's position is what names it
        <div key={`f${i}`} className={s.field}>
          <Field label={`Field ${i + 1} name`}>
            <Input value={x.name} onChange={(_, d) => setField(i, { name: d.value })} />
          </Field>
          <Field label={`Field ${i + 1} source`}>
            <Input
              value={x.dataField}
              placeholder="Table[column], or =expression"
              onChange={(_, d) => setField(i, { dataField: d.value })}
            />
          </Field>
          <Button
            icon={<Delete20Regular />}
            aria-label={`Remove field ${i + 1}`}
            onClick={() => set({ fields: f.fields.filter((_, j) => j !== i) })}
          />
        </div>
      ))}
      <Button icon={<Add20Regular />} onClick={() => set({ fields: [...f.fields, { name: '', dataField: '' }] })}>
        Add a field
      </Button>
      <Text weight="semibold">Filters</Text>
      <FiltersEditor
        filters={f.filters}
        fallback={f.fields[0] ? `=Fields!${f.fields[0].name}.Value` : ''}
        context={{ ...context, fields: f.fields.map((x) => x.name).filter(Boolean) }}
        onChange={(filters) => set({ filters })}
      />
    </FormDialog>
  );
}

/** The form of an existing data set. */
export const formOf = (d: DataSetInfo): DataSetForm => ({
  name: d.name,
  dataSource: d.dataSource,
  commandText: d.commandText,
  fields: d.fields.map((x) => ({ name: x.name, dataField: x.dataField, original: x.name })),
  filters: d.filters,
});
