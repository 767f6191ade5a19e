import type { ReactNode } from 'react';
import { Checkbox, Field, Input, Label, Select, Text, tokens } from '@fluentui/react-components';
import type { ReportParameter } from '../../api/reports';

/** A parameter's entered values: one or more texts, or null. */
export type ParameterValue = { values: string[]; isNull: boolean };

const inputType = (p: ReportParameter) =>
  p.dataType === 'DateTime' ? 'date' : p.dataType === 'Integer' || p.dataType === 'Float' ? 'number' : 'text';

/** Whether the report needs a value of the user: a parameter without a default that may not be null. */
export const isRequired = (p: ReportParameter) => !p.defaultValues.length && !p.nullable;

/** The values sent for a parameter: blanks dropped unless the parameter allows a blank. */
export const sentValues = (p: ReportParameter, v: ParameterValue) => v.values.filter((x) => x !== '' || p.allowBlank);

/** One parameter's control (select, checkboxes, text, number, date), marked when required, with its refusal. */
export function ParameterField({
  p,
  v,
  set,
  error,
}: {
  p: ReportParameter;
  v: ParameterValue;
  set: (v: Partial<ParameterValue>) => void;
  error?: string;
}) {
  const required = isRequired(p);
  const computed = p.defaultValues.filter((d) => d.startsWith('='));
  const hint = `${p.dataType}${p.multiValue ? ', several values' : ''}${p.nullable ? ', may be null' : ''}${computed.length ? `; left empty, the default ${computed.join(', ')} applies` : ''}`;
  let control: ReactNode;
  if (p.validValues.length && p.multiValue) {
    control = (
      <fieldset aria-labelledby={`param-${p.name}`} style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
        {p.validValues.map((o) => (
          <Checkbox
            key={o.value}
            label={o.label}
            checked={v.values.includes(o.value)}
            disabled={v.isNull}
            onChange={(_, d) => set({ values: d.checked ? [...v.values.filter(Boolean), o.value] : v.values.filter((x) => x !== o.value) })}
          />
        ))}
      </fieldset>
    );
  } else if (p.validValues.length) {
    control = (
      <Select aria-label={p.prompt} value={v.values[0] ?? ''} disabled={v.isNull} onChange={(_, d) => set({ values: [d.value] })}>
        {!p.defaultValues.length && <option value="">Choose…</option>}
        {p.validValues.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </Select>
    );
  } else if (p.dataType === 'Boolean') {
    control = (
      <Select aria-label={p.prompt} value={v.values[0] ?? ''} disabled={v.isNull} onChange={(_, d) => set({ values: [d.value] })}>
        <option value="">Choose…</option>
        <option value="true">True</option>
        <option value="false">False</option>
      </Select>
    );
  } else {
    const text = p.multiValue ? v.values.join('\n') : (v.values[0] ?? '');
    control = p.multiValue ? (
      <textarea
        aria-label={p.prompt}
        rows={3}
        value={text}
        disabled={v.isNull}
        onChange={(e) => set({ values: e.target.value.split('\n') })}
        placeholder="one value per line"
      />
    ) : (
      <Input
        aria-label={p.prompt}
        type={inputType(p)}
        step={p.dataType === 'Float' ? 'any' : undefined}
        value={text}
        disabled={v.isNull}
        onChange={(_, d) => set({ values: [d.value] })}
      />
    );
  }
  // Checkboxes sit outside Field: a Field gives every Fluent control inside it the same id.
  const single = !(p.validValues.length && p.multiValue);
  return (
    <div style={{ display: 'grid', gap: 4, alignContent: 'start' }}>
      {single ? (
        <Field label={p.prompt} hint={hint} required={required} validationState={error ? 'error' : 'none'} validationMessage={error}>
          {control}
        </Field>
      ) : (
        <>
          <Label id={`param-${p.name}`} required={required}>
            {p.prompt}
          </Label>
          {control}
          <Text size={200}>{hint}</Text>
          {error && (
            <Text role="alert" size={200} style={{ color: tokens.colorPaletteRedForeground1 }}>
              {error}
            </Text>
          )}
        </>
      )}
      {p.nullable && <Checkbox label={`${p.prompt}: null`} checked={v.isNull} onChange={(_, d) => set({ isNull: !!d.checked })} />}
    </div>
  );
}
