// Report parameters as the parameters pane edits them: every RDL type, single or multi value, defaults (values or
// a query), available values (a list or a query), nullable, blank, hidden, prompt; and the prompt layout grid.

import { ensureChild, type RdlDocument } from './report.js';
import { child, childText, elements, textOf, type XElement } from './xml.js';
import { build, insertChild, removeChild, type Spec } from './xml-edit.js';

/** The parameter types of RDL (SPEC.md: Boolean, DateTime, Integer, Float, String). */
export const PARAMETER_TYPES = ['String', 'Integer', 'Float', 'Boolean', 'DateTime'] as const;
export type ParameterType = (typeof PARAMETER_TYPES)[number];

export type ValuesSource =
  | { kind: 'none' }
  | { kind: 'values'; values: string[] }
  | { kind: 'query'; dataSet: string; valueField: string; labelField?: string };

export type AvailableValues =
  | { kind: 'none' }
  | { kind: 'list'; values: Array<{ value: string; label: string }> }
  | { kind: 'query'; dataSet: string; valueField: string; labelField?: string };

export interface ParameterDef {
  name: string;
  dataType: ParameterType;
  prompt: string;
  multiValue: boolean;
  nullable: boolean;
  allowBlank: boolean;
  hidden: boolean;
  defaults: ValuesSource;
  available: AvailableValues;
}

const flag = (el: XElement, name: string) => childText(el, name)?.toLowerCase() === 'true';

function readQuery(ref: XElement) {
  const label = childText(ref, 'LabelField');
  return {
    dataSet: childText(ref, 'DataSetName') ?? '',
    valueField: childText(ref, 'ValueField') ?? '',
    ...(label ? { labelField: label } : {}),
  };
}

/** Reads one ReportParameter. */
export function readParameter(p: XElement): ParameterDef {
  const def = child(p, 'DefaultValue');
  const valid = child(p, 'ValidValues');
  const defRef = child(def, 'DataSetReference');
  const validRef = child(valid, 'DataSetReference');
  const type = childText(p, 'DataType') ?? 'String';
  return {
    name: p.attrs.Name ?? '',
    dataType: (PARAMETER_TYPES as readonly string[]).includes(type) ? (type as ParameterType) : 'String',
    prompt: childText(p, 'Prompt') ?? '',
    multiValue: flag(p, 'MultiValue'),
    nullable: flag(p, 'Nullable'),
    allowBlank: flag(p, 'AllowBlank'),
    hidden: flag(p, 'Hidden'),
    defaults: defRef
      ? { kind: 'query', ...readQuery(defRef) }
      : def
        ? { kind: 'values', values: elements(child(def, 'Values'), 'Value').map((v) => textOf(v)?.trim() ?? '') }
        : { kind: 'none' },
    available: validRef
      ? { kind: 'query', ...readQuery(validRef) }
      : valid
        ? {
            kind: 'list',
            values: elements(child(valid, 'ParameterValues'), 'ParameterValue').map((v) => ({
              value: childText(v, 'Value') ?? '',
              label: childText(v, 'Label') ?? childText(v, 'Value') ?? '',
            })),
          }
        : { kind: 'none' },
  };
}

export function parameters(doc: RdlDocument): ParameterDef[] {
  return elements(child(doc.root, 'ReportParameters'), 'ReportParameter').map(readParameter);
}

const queryRef = (q: { dataSet: string; valueField: string; labelField?: string }): Spec => [
  'DataSetReference',
  ['DataSetName', q.dataSet],
  ['ValueField', q.valueField],
  q.labelField ? ['LabelField', q.labelField] : undefined,
];

/** A ReportParameter element for a definition (only what differs from RDL's defaults is written). */
export function parameterSpec(p: ParameterDef): Spec {
  const defaults: Spec | undefined =
    p.defaults.kind === 'values'
      ? ['DefaultValue', ['Values', ...p.defaults.values.map((v): Spec => ['Value', v])]]
      : p.defaults.kind === 'query'
        ? ['DefaultValue', queryRef(p.defaults)]
        : undefined;
  const valid: Spec | undefined =
    p.available.kind === 'list'
      ? [
          'ValidValues',
          [
            'ParameterValues',
            ...p.available.values.map(
              (v): Spec => ['ParameterValue', ['Value', v.value], v.label && v.label !== v.value && ['Label', v.label]],
            ),
          ],
        ]
      : p.available.kind === 'query'
        ? ['ValidValues', queryRef(p.available)]
        : undefined;
  return [
    'ReportParameter',
    { Name: p.name },
    ['DataType', p.dataType],
    p.nullable && ['Nullable', 'true'],
    defaults,
    p.allowBlank && ['AllowBlank', 'true'],
    ['Prompt', p.prompt || p.name],
    p.hidden && ['Hidden', 'true'],
    valid,
    p.multiValue && ['MultiValue', 'true'],
  ];
}

/** Checks a parameter before it is written: a name, a multi-value parameter is not nullable or Boolean, references resolve. */
export function parameterFault(doc: RdlDocument, p: ParameterDef, previousName?: string): string | undefined {
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(p.name)) return 'A parameter name starts with a letter and has letters, digits and underscores only';
  if (p.name !== previousName && parameters(doc).some((x) => x.name === p.name)) return `There is already a parameter ${p.name}`;
  if (p.multiValue && p.nullable) return 'A multi-value parameter cannot be nullable (Nullable is for single values)';
  if (p.multiValue && p.dataType === 'Boolean') return 'A Boolean parameter cannot be multi-value';
  const sets = elements(child(doc.root, 'DataSets'), 'DataSet').map((d) => d.attrs.Name);
  for (const q of [p.defaults, p.available])
    if (q.kind === 'query' && (!sets.includes(q.dataSet) || !q.valueField))
      return `The query of ${p.name} names a data set and its value field`;
  if (p.available.kind === 'list' && !p.available.values.length) return 'Available values need at least one value';
  return undefined;
}

/** Adds a parameter, or replaces the one named `previousName` (its place kept); the prompt layout follows. */
export function saveParameter(doc: RdlDocument, p: ParameterDef, previousName?: string): void {
  const fault = parameterFault(doc, p, previousName);
  if (fault) throw new Error(fault);
  const list = ensureChild(doc.root, 'ReportParameters');
  const made = build(parameterSpec(p));
  const old = previousName ? elements(list, 'ReportParameter').find((x) => x.attrs.Name === previousName) : undefined;
  if (old) {
    const index = elements(list, 'ReportParameter').indexOf(old);
    removeChild(list, old);
    insertChild(list, made, index);
  } else insertChild(list, made);
  layoutParameter(doc, p.name, previousName);
}

/** Removes a parameter (and its place in the prompt layout). */
export function deleteParameter(doc: RdlDocument, name: string): void {
  const list = child(doc.root, 'ReportParameters');
  const el = elements(list, 'ReportParameter').find((x) => x.attrs.Name === name);
  if (!list || !el) return;
  removeChild(list, el);
  if (!elements(list).length) removeChild(doc.root, list);
  const cells = child(child(child(doc.root, 'ReportParametersLayout'), 'GridLayoutDefinition'), 'CellDefinitions');
  const cell = elements(cells, 'CellDefinition').find((c) => childText(c, 'ParameterName') === name);
  if (cells && cell) removeChild(cells, cell);
}

/**
 * Keeps ReportParametersLayout (when the definition has one) naming each parameter once: a renamed one keeps its
 * cell, a new one takes the next free cell, growing the grid by a row when it is full.
 */
function layoutParameter(doc: RdlDocument, name: string, previousName?: string): void {
  const grid = child(child(doc.root, 'ReportParametersLayout'), 'GridLayoutDefinition');
  if (!grid) return;
  const cells = ensureChild(grid, 'CellDefinitions');
  const defs = elements(cells, 'CellDefinition');
  const named = (n: string) => defs.find((c) => childText(c, 'ParameterName') === n);
  const renamed = previousName ? named(previousName) : undefined;
  if (renamed) {
    const pn = child(renamed, 'ParameterName')!;
    pn.children = [{ kind: 'text', raw: name }];
    return;
  }
  if (named(name)) return;
  const columns = Number(childText(grid, 'NumberOfColumns') ?? 4) || 4;
  const used = new Set(defs.map((c) => `${childText(c, 'RowIndex')},${childText(c, 'ColumnIndex')}`));
  let i = 0;
  while (used.has(`${Math.floor(i / columns)},${i % columns}`)) i++;
  const row = Math.floor(i / columns);
  const rows = Number(childText(grid, 'NumberOfRows') ?? 1) || 1;
  if (row >= rows) {
    const nr = child(grid, 'NumberOfRows');
    if (nr) nr.children = [{ kind: 'text', raw: String(row + 1) }];
  }
  insertChild(cells, build(['CellDefinition', ['ColumnIndex', String(i % columns)], ['RowIndex', String(row)], ['ParameterName', name]]));
}
