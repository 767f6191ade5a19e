import { useState } from 'react';
import { Button, Checkbox, Field, Input, makeStyles, Radio, RadioGroup, Select, Text } from '@fluentui/react-components';
import { Add20Regular, Delete20Regular } from '@fluentui/react-icons';
import { FormDialog } from '../components/FormDialog';
import { ExpressionField } from './ExpressionEditor';
import type { DataSetInfo } from './model/data';
import type { ExpressionContext } from './model/expression-check';
import { type AvailableValues, PARAMETER_TYPES, type ParameterDef, type ValuesSource } from './model/params';

const useStyles = makeStyles({
  grid: { display: 'grid', gridTemplateColumns: '1fr 1fr', gap: '8px' },
  flags: { display: 'flex', flexWrap: 'wrap', gap: '4px 12px' },
  pair: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr) auto', gap: '6px', alignItems: 'end' },
});

/** Picks a data set and its value (and label) fields: defaults or available values from a query. */
function QueryPick({
  sets,
  value,
  label,
  withLabel,
  onChange,
}: {
  sets: DataSetInfo[];
  value: { dataSet: string; valueField: string; labelField?: string };
  label: string;
  withLabel: boolean;
  onChange: (v: { dataSet: string; valueField: string; labelField?: string }) => void;
}) {
  const s = useStyles();
  const fields = sets.find((x) => x.name === value.dataSet)?.fields ?? [];
  return (
    <div className={s.grid}>
      <Field label={`${label}: data set`}>
        <Select value={value.dataSet} onChange={(_, d) => onChange({ dataSet: d.value, valueField: '' })}>
          <option value="">Choose…</option>
          {sets.map((x) => (
            <option key={x.name}>{x.name}</option>
          ))}
        </Select>
      </Field>
      <Field label={`${label}: value field`}>
        <Select value={value.valueField} onChange={(_, d) => onChange({ ...value, valueField: d.value })}>
          <option value="">Choose…</option>
          {fields.map((f) => (
            <option key={f.name}>{f.name}</option>
          ))}
        </Select>
      </Field>
      {withLabel && (
        <Field label={`${label}: label field`}>
          <Select value={value.labelField ?? ''} onChange={(_, d) => onChange({ ...value, labelField: d.value || undefined })}>
            <option value="">(the value)</option>
            {fields.map((f) => (
              <option key={f.name}>{f.name}</option>
            ))}
          </Select>
        </Field>
      )}
    </div>
  );
}

/** A report parameter's properties: name, prompt, type, flags, default values and available values. */
export function ParameterDialog({
  initial,
  sets,
  context,
  fault,
  onClose,
  onSave,
}: {
  initial: ParameterDef;
  sets: DataSetInfo[];
  context: ExpressionContext;
  fault?: string;
  onClose: () => void;
  onSave: (p: ParameterDef) => void;
}) {
  const s = useStyles();
  const [p, setP] = useState(initial);
  const set = (change: Partial<ParameterDef>) => setP((old) => ({ ...old, ...change }));
  const defaults: ValuesSource = p.defaults;
  const available: AvailableValues = p.available;
  return (
    <FormDialog
      open
      onClose={onClose}
      title={initial.name ? `Parameter ${initial.name}` : 'New parameter'}
      submitLabel="OK"
      disabled={!p.name.trim()}
      error={fault ? new Error(fault) : undefined}
      onSubmit={() => onSave({ ...p, name: p.name.trim() })}
    >
      <div className={s.grid}>
        <Field label="Name" required>
          <Input value={p.name} onChange={(_, d) => set({ name: d.value })} />
        </Field>
        <Field label="Prompt">
          <Input value={p.prompt} onChange={(_, d) => set({ prompt: d.value })} />
        </Field>
      </div>
      <Field label="Data type">
        <Select value={p.dataType} onChange={(_, d) => set({ dataType: d.value as ParameterDef['dataType'] })}>
          {PARAMETER_TYPES.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </Select>
      </Field>
      <div className={s.flags}>
        <Checkbox label="Allow multiple values" checked={p.multiValue} onChange={(_, d) => set({ multiValue: !!d.checked })} />
        <Checkbox label="Allow null value" checked={p.nullable} onChange={(_, d) => set({ nullable: !!d.checked })} />
        <Checkbox label="Allow blank value" checked={p.allowBlank} onChange={(_, d) => set({ allowBlank: !!d.checked })} />
        <Checkbox label="Hidden" checked={p.hidden} onChange={(_, d) => set({ hidden: !!d.checked })} />
      </div>
      <Text weight="semibold">Default values</Text>
      <RadioGroup
        layout="horizontal"
        aria-label="Default values"
        value={defaults.kind}
        onChange={(_, d) =>
          set({
            defaults:
              d.value === 'values'
                ? { kind: 'values', values: [''] }
                : d.value === 'query'
                  ? { kind: 'query', dataSet: '', valueField: '' }
                  : { kind: 'none' },
          })
        }
      >
        <Radio value="none" label="No default" />
        <Radio value="values" label="Specify values" />
        <Radio value="query" label="Get values from a query" />
      </RadioGroup>
      {defaults.kind === 'values' &&
        defaults.values.map((v, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows edited in place: a row's position is what names it
          <div key={`d${i}`} className={s.pair}>
            <ExpressionField
              label={`Default value ${i + 1}`}
              value={v}
              context={context}
              onCommit={(x) => set({ defaults: { kind: 'values', values: defaults.values.map((y, j) => (j === i ? x : y)) } })}
            />
            <span />
            <Button
              icon={<Delete20Regular />}
              aria-label={`Remove default value ${i + 1}`}
              onClick={() => set({ defaults: { kind: 'values', values: defaults.values.filter((_, j) => j !== i) } })}
            />
          </div>
        ))}
      {defaults.kind === 'values' && (
        <Button icon={<Add20Regular />} onClick={() => set({ defaults: { kind: 'values', values: [...defaults.values, ''] } })}>
          Add a default value
        </Button>
      )}
      {defaults.kind === 'query' && (
        <QueryPick
          sets={sets}
          label="Defaults"
          withLabel={false}
          value={defaults}
          onChange={(q) => set({ defaults: { kind: 'query', ...q } })}
        />
      )}
      <Text weight="semibold">Available values</Text>
      <RadioGroup
        layout="horizontal"
        aria-label="Available values"
        value={available.kind}
        onChange={(_, d) =>
          set({
            available:
              d.value === 'list'
                ? { kind: 'list', values: [{ value: '', label: '' }] }
                : d.value === 'query'
                  ? { kind: 'query', dataSet: '', valueField: '' }
                  : { kind: 'none' },
          })
        }
      >
        <Radio value="none" label="Any value" />
        <Radio value="list" label="Specify values" />
        <Radio value="query" label="Get values from a query" />
      </RadioGroup>
      {available.kind === 'list' &&
        available.values.map((v, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows edited in place: a row's position is what names it
          <div key={`a${i}`} className={s.pair}>
            <Field label={`Value ${i + 1}`}>
              <Input
                value={v.value}
                onChange={(_, d) =>
                  set({ available: { kind: 'list', values: available.values.map((y, j) => (j === i ? { ...y, value: d.value } : y)) } })
                }
              />
            </Field>
            <Field label={`Label ${i + 1}`}>
              <Input
                value={v.label}
                onChange={(_, d) =>
                  set({ available: { kind: 'list', values: available.values.map((y, j) => (j === i ? { ...y, label: d.value } : y)) } })
                }
              />
            </Field>
            <Button
              icon={<Delete20Regular />}
              aria-label={`Remove value ${i + 1}`}
              onClick={() => set({ available: { kind: 'list', values: available.values.filter((_, j) => j !== i) } })}
            />
          </div>
        ))}
      {available.kind === 'list' && (
        <Button
          icon={<Add20Regular />}
          onClick={() => set({ available: { kind: 'list', values: [...available.values, { value: '', label: '' }] } })}
        >
          Add a value
        </Button>
      )}
      {available.kind === 'query' && (
        <QueryPick
          sets={sets}
          label="Available values"
          withLabel
          value={available}
          onChange={(q) => set({ available: { kind: 'query', ...q } })}
        />
      )}
    </FormDialog>
  );
}
