import { invalidRequest } from './errors.js';
import type { QueryValues, RdlParameter } from './rdl.js';
import { type EvalScope, ReportProcessingError, evaluateStrict } from './render/expressions.js';
import { isoDate, roundEven, toStr, type Value } from './render/expr/values.js';

/** A parameter's effective values after defaults and checks (null stands for a null value). */
export interface ParameterValues {
  parameter: RdlParameter;
  values: Array<string | null>;
  labels: string[];
}

const NULL_DEFAULT = '\u0000null';

/** Normalises a value to its data type, or answers why it cannot be. */
function coerce(p: RdlParameter, raw: string): { value?: string; problem?: string } {
  const v = raw.trim();
  switch (p.dataType) {
    case 'Boolean':
      return /^(true|false)$/i.test(v)
        ? { value: v.toLowerCase() === 'true' ? 'True' : 'False' }
        : { problem: `'${raw}' is not a Boolean (true or false)` };
    case 'Integer': {
      if (!/^[-+]?\d+$/.test(v)) return { problem: `'${raw}' is not an Integer` };
      const n = Number(v);
      return n >= -2147483648 && n <= 2147483647 ? { value: String(n) } : { problem: `'${raw}' is outside the Integer range` };
    }
    case 'Float':
      return v !== '' && Number.isFinite(Number(v)) ? { value: String(Number(v)) } : { problem: `'${raw}' is not a Float` };
    case 'DateTime': {
      // ISO dates, or US month/day/year as the service reads DateTime parameters.
      const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(.*)$/.exec(v);
      const t = us
        ? Date.parse(`${us[3]}-${us[1]!.padStart(2, '0')}-${us[2]!.padStart(2, '0')}${us[4]?.trim() ? `T${us[4].trim()}` : ''}`)
        : Date.parse(v);
      if (!Number.isFinite(t)) return { problem: `'${raw}' is not a DateTime (ISO 8601 or month/day/year)` };
      return { value: v };
    }
    default:
      return { value: raw };
  }
}

/** What a parameter's default and valid value expressions see besides the parameters before it. */
export type ParameterContext = Pick<EvalScope, 'reportName' | 'executionTime' | 'user' | 'renderFormat'> & {
  /** The rows of a data set for the parameters known so far (defaults and valid values from a query). */
  rowsOf?: (dataSet: string, scope: EvalScope) => Array<Record<string, string>>;
};

/** Values (and labels) of a DataSetReference: its fields over the data set's rows, in order. */
function queryValues(q: QueryValues, context: ParameterContext, scope: EvalScope): Array<{ value: string; label: string }> {
  const rows = context.rowsOf?.(q.dataSet, scope) ?? [];
  return rows.map((r) => ({ value: r[q.valueField] ?? '', label: r[q.labelField ?? q.valueField] ?? r[q.valueField] ?? '' }));
}

/** A typed expression result as the parameter's value text (a list gives several values). */
function valueTexts(p: RdlParameter, v: Value): Array<string | null> {
  if (Array.isArray(v)) return v.flatMap((x) => valueTexts(p, x));
  if (v === null) return [null];
  if (v instanceof Date) return [p.dataType === 'String' ? toStr(v) : isoDate(v)];
  if (typeof v === 'number' && p.dataType === 'Integer') return [String(roundEven(v))];
  return [toStr(v)];
}

/** Evaluates the expressions among a parameter's defaults ('=DateAdd("d", -7, Today())'); literals stay as written. */
function evaluateDefaults(p: RdlParameter, defaults: string[], scope: EvalScope): Array<string | null> {
  return defaults.flatMap((d) => {
    if (d === NULL_DEFAULT) return [null];
    if (!d.startsWith('=')) return [d];
    return valueTexts(
      p,
      guarded(() => evaluateStrict(d, scope, `DefaultValue expression for the report parameter '${p.name}'`)),
    );
  });
}

/** A parameter expression's processing error refuses the request with its message (400 InvalidRequest). */
function guarded<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof ReportProcessingError) throw invalidRequest(`${err.detail} (${err.code})`);
    throw err;
  }
}

/** Valid values whose value or label is an expression, evaluated. */
function validValuesOf(p: RdlParameter, scope: EvalScope): RdlParameter['validValues'] {
  return p.validValues?.map((vv) => {
    const at = (what: string) => `${what} expression for the report parameter '${p.name}'`;
    const value = vv.value.startsWith('=')
      ? (valueTexts(
          p,
          guarded(() => evaluateStrict(vv.value, scope, at('ValidValue'))),
        )[0] ?? '')
      : vv.value;
    const label = vv.label.startsWith('=')
      ? toStr(guarded(() => evaluateStrict(vv.label, scope, at('Label'))))
      : vv.label === vv.value
        ? value
        : vv.label;
    return { value, label };
  });
}

/**
 * Applies `parameterValues` ([{name, value}], a repeated name is a multi-value list) to the report's parameters:
 * case-sensitive names, data type coercion, Nullable, AllowBlank and ValidValues, defaults for absent ones.
 */
export function applyParameters(
  parameters: RdlParameter[],
  given: unknown,
  context: ParameterContext = { reportName: '', executionTime: new Date(), user: { userId: '', language: 'en-US' }, renderFormat: 'RPL' },
): Map<string, ParameterValues> {
  if (given !== undefined && !Array.isArray(given))
    throw invalidRequest('paginatedReportConfiguration.parameterValues must be an array of {name, value}.');
  const byName = new Map<string, Array<string | null>>();
  for (const [i, pv] of ((given as any[]) ?? []).entries()) {
    if (!pv || typeof pv !== 'object' || typeof pv.name !== 'string' || !pv.name)
      throw invalidRequest(`paginatedReportConfiguration.parameterValues[${i}].name is required.`);
    if (pv.value !== null && pv.value !== undefined && typeof pv.value !== 'string')
      throw invalidRequest(`paginatedReportConfiguration.parameterValues[${i}].value must be a string (or null).`);
    const p = parameters.find((x) => x.name === pv.name);
    if (!p) {
      const near = parameters.find((x) => x.name.toLowerCase() === pv.name.toLowerCase());
      throw invalidRequest(
        `The report has no parameter '${pv.name}'${near ? ` (parameter names are case-sensitive; did you mean '${near.name}'?)` : ''}.`,
      );
    }
    const list = byName.get(p.name) ?? [];
    list.push(pv.value ?? null);
    byName.set(p.name, list);
  }
  const out = new Map<string, ParameterValues>();
  // Expressions of a parameter see the parameters before it, as the service evaluates them in order.
  const scope: EvalScope = { ...context, parameters: out };
  for (const declared of parameters) {
    let p: RdlParameter = declared.validValues ? { ...declared, validValues: validValuesOf(declared, scope) } : declared;
    if (declared.validValuesFrom) p = { ...p, validValues: guarded(() => queryValues(declared.validValuesFrom!, context, scope)) };
    if (declared.defaultsFrom && !declared.defaults) {
      const found = guarded(() => queryValues(declared.defaultsFrom!, context, scope)).map((v) => v.value);
      p = { ...p, defaults: p.multiValue ? found : found.slice(0, 1) };
    }
    let values = byName.get(p.name);
    if (!values) {
      if (p.defaults === undefined || !p.defaults.length) {
        if (p.nullable) values = [null];
        else throw invalidRequest(`The parameter '${p.name}' has no default value; a value is required.`);
      } else values = evaluateDefaults(p, p.defaults, scope);
    }
    if (values.length > 1 && !p.multiValue) throw invalidRequest(`The parameter '${p.name}' takes one value; ${values.length} were given.`);
    const checked: Array<string | null> = values.map((v) => {
      if (v === null) {
        if (!p.nullable) throw invalidRequest(`The parameter '${p.name}' is not nullable.`);
        return null;
      }
      if (v === '' && p.dataType === 'String' && !p.allowBlank)
        throw invalidRequest(`The parameter '${p.name}' does not allow a blank value.`);
      if (v === '' && p.dataType === 'String') return v;
      const c = coerce(p, v);
      if (c.problem) throw invalidRequest(`The value of parameter '${p.name}' is not valid: ${c.problem}.`);
      if (p.validValues && !p.validValues.some((vv) => (coerce(p, vv.value).value ?? vv.value) === c.value)) {
        throw invalidRequest(
          `'${v}' is not a valid value of parameter '${p.name}'; valid values are ${p.validValues.map((vv) => vv.value).join(', ')}.`,
        );
      }
      return c.value!;
    });
    const labels = checked.map((v) =>
      v === null ? '' : (p.validValues?.find((vv) => (coerce(p, vv.value).value ?? vv.value) === v)?.label ?? v),
    );
    out.set(p.name, { parameter: p, values: checked, labels });
  }
  return out;
}
