// Data sources and data sets of a definition: read, add, change the query and the fields, and the data set a
// semantic model's table needs (made when one of its columns is first dragged onto the report).

import { ensureChild, type RdlDocument, setChildText } from './report.js';
import { filtersSpec, type FilterSpec } from './group-props.js';
import { child, childText, elements, textOf, type XElement } from './xml.js';
import { build, insertChild, removeChild, setAttr, type Spec } from './xml-edit.js';

export interface DataSourceInfo {
  name: string;
  provider: string;
  connectString: string;
}

export interface FieldInfo {
  name: string;
  /** DataField (a column of the query), or the Value of a calculated field. */
  dataField: string;
  calculated: boolean;
  typeName?: string;
}

export interface DataSetInfo {
  name: string;
  dataSource: string;
  commandText: string;
  fields: FieldInfo[];
  filters: FilterSpec[];
}

/** A semantic model's column as the report data pane lists it (from the model's definition). */
export interface ModelColumn {
  table: string;
  column: string;
  dataType?: string;
}

const TYPE_NAMES: Record<string, string> = {
  int64: 'System.Int64',
  double: 'System.Double',
  decimal: 'System.Decimal',
  dateTime: 'System.DateTime',
  boolean: 'System.Boolean',
  string: 'System.String',
};

/** The rd:TypeName of a model column's data type (TMSL: int64, double, decimal, dateTime, boolean, string). */
export const typeNameOf = (dataType?: string) => TYPE_NAMES[dataType ?? 'string'] ?? 'System.String';

/** Whether a field's type (rd:TypeName) is a number. */
export const isNumericType = (typeName?: string) => /Int|Double|Decimal|Single|Float/i.test(typeName ?? '');

export function dataSources(doc: RdlDocument): DataSourceInfo[] {
  return elements(child(doc.root, 'DataSources'), 'DataSource').map((d) => {
    const cp = child(d, 'ConnectionProperties');
    return { name: d.attrs.Name ?? '', provider: childText(cp, 'DataProvider') ?? '', connectString: childText(cp, 'ConnectString') ?? '' };
  });
}

export function dataSets(doc: RdlDocument): DataSetInfo[] {
  return elements(child(doc.root, 'DataSets'), 'DataSet').map((d) => ({
    name: d.attrs.Name ?? '',
    dataSource: childText(child(d, 'Query'), 'DataSourceName') ?? '',
    commandText: textOf(child(child(d, 'Query'), 'CommandText')) ?? '',
    fields: elements(child(d, 'Fields'), 'Field').map((f) => ({
      name: f.attrs.Name ?? '',
      dataField: childText(f, 'DataField') ?? childText(f, 'Value') ?? '',
      calculated: !child(f, 'DataField') && !!child(f, 'Value'),
      typeName: childText(f, 'TypeName'),
    })),
    filters: elements(child(d, 'Filters'), 'Filter').map((f) => ({
      expression: childText(f, 'FilterExpression') ?? '',
      operator: childText(f, 'Operator') ?? 'Equal',
      values: elements(child(f, 'FilterValues'), 'FilterValue').map((v) => textOf(v)?.trim() ?? ''),
    })),
  }));
}

const dataSetEl = (doc: RdlDocument, name: string) => elements(child(doc.root, 'DataSets'), 'DataSet').find((d) => d.attrs.Name === name);

/** DataSources or DataSets, added after the elements the root usually lists before them. */
function section(doc: RdlDocument, name: 'DataSources' | 'DataSets'): XElement {
  const have = child(doc.root, name);
  if (have) return have;
  const kids = elements(doc.root);
  const before = ['Description', 'Author', 'AutoRefresh', 'DefaultFontFamily', ...(name === 'DataSets' ? ['DataSources'] : [])];
  let index = 0;
  kids.forEach((k, i) => {
    if (before.includes(k.name.slice(k.name.indexOf(':') + 1))) index = i + 1;
  });
  return ensureChild(doc.root, name, index);
}

/** Adds a data source; answers its name. */
export function addDataSource(doc: RdlDocument, base: string, provider: string, connectString: string): string {
  const name = doc.uniqueName(base);
  insertChild(
    section(doc, 'DataSources'),
    build(['DataSource', { Name: name }, ['ConnectionProperties', ['DataProvider', provider], ['ConnectString', connectString]]]),
  );
  return name;
}

/** Adds a data set over a data source; answers its name. */
export function addDataSet(
  doc: RdlDocument,
  base: string,
  dataSource: string,
  commandText: string,
  fields: Array<{ name: string; dataField: string; typeName?: string }>,
): string {
  const name = doc.uniqueName(base);
  insertChild(
    section(doc, 'DataSets'),
    build([
      'DataSet',
      { Name: name },
      ['Query', ['DataSourceName', dataSource], ['CommandText', commandText]],
      fields.length ? ['Fields', ...fields.map(fieldSpec)] : undefined,
    ]),
  );
  return name;
}

const fieldSpec = (f: { name: string; dataField: string; typeName?: string }): Spec => [
  'Field',
  { Name: f.name },
  ['DataField', f.dataField],
  f.typeName ? ['rd:TypeName', f.typeName] : undefined,
];

/** Changes a data set's query text or its data source. */
export function setQuery(doc: RdlDocument, dataSet: string, change: { commandText?: string; dataSource?: string }): void {
  const d = dataSetEl(doc, dataSet);
  if (!d) throw new Error(`no data set ${dataSet}`);
  const q = ensureChild(d, 'Query');
  if (change.commandText !== undefined) setChildText(q, 'CommandText', change.commandText);
  if (change.dataSource !== undefined) setChildText(q, 'DataSourceName', change.dataSource);
}

/** Adds a field to a data set (a DataField, or a calculated field when `value` starts with '='). */
export function addField(doc: RdlDocument, dataSet: string, f: { name: string; dataField: string; typeName?: string }): string {
  const d = dataSetEl(doc, dataSet);
  if (!d) throw new Error(`no data set ${dataSet}`);
  const existing = dataSets(doc).find((s) => s.name === dataSet)!.fields;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(f.name)) throw new Error('a field name has letters, digits and underscores only');
  if (existing.some((x) => x.name === f.name)) throw new Error(`${dataSet} already has a field ${f.name}`);
  const spec: Spec = f.dataField.startsWith('=') ? ['Field', { Name: f.name }, ['Value', f.dataField]] : fieldSpec(f);
  insertChild(ensureChild(d, 'Fields'), build(spec));
  return f.name;
}

/** Changes a field's name or source; a field not given is kept. */
export function updateField(doc: RdlDocument, dataSet: string, field: string, change: { name?: string; dataField?: string }): void {
  const f = elements(child(dataSetEl(doc, dataSet), 'Fields'), 'Field').find((x) => x.attrs.Name === field);
  if (!f) throw new Error(`no field ${field} in ${dataSet}`);
  if (change.name && change.name !== field) setAttr(f, 'Name', change.name);
  if (change.dataField !== undefined) setChildText(f, child(f, 'Value') ? 'Value' : 'DataField', change.dataField);
}

export function removeField(doc: RdlDocument, dataSet: string, field: string): void {
  const fields = child(dataSetEl(doc, dataSet), 'Fields');
  const f = elements(fields, 'Field').find((x) => x.attrs.Name === field);
  if (fields && f) removeChild(fields, f);
}

/** Replaces a data set's filters (none removes the Filters element). */
export function setDataSetFilters(doc: RdlDocument, dataSet: string, filters: FilterSpec[]): void {
  const d = dataSetEl(doc, dataSet);
  if (!d) throw new Error(`no data set ${dataSet}`);
  const old = child(d, 'Filters');
  if (old) removeChild(d, old);
  if (filters.length) insertChild(d, build(filtersSpec(filters)));
}

/** The connection string of a semantic model of the reporting service (its XMLA-style catalog name). */
export const modelConnectString = (apiHost: string, datasetId: string) =>
  `Data Source=pbiazure://${apiHost}/;Initial Catalog=sobe_wowvirtualserver-${datasetId};Integrated Security=ClaimsToken`;

/** A field name from a column name (letters, digits, underscores; starting with a letter). */
export const fieldName = (column: string) => column.replace(/[^A-Za-z0-9_]/g, '_').replace(/^[^A-Za-z]+/, '') || 'Field';

/**
 * The data set and field of a model's column: the model's data source and the table's data set (`EVALUATE 'Table'`)
 * are made on first use, the field added to the data set when it lacks it.
 */
export function ensureModelField(
  doc: RdlDocument,
  model: { name: string; apiHost: string; datasetId: string },
  col: ModelColumn,
): { dataSet: string; field: string; numeric: boolean } {
  const catalog = `sobe_wowvirtualserver-${model.datasetId}`;
  let source = dataSources(doc).find((s) => s.connectString.includes(catalog))?.name;
  if (!source) source = addDataSource(doc, model.name, 'PBIDATASET', modelConnectString(model.apiHost, model.datasetId));
  const command = `EVALUATE '${col.table.replace(/'/g, "''")}'`;
  let set = dataSets(doc).find((s) => s.dataSource === source && s.commandText.trim() === command);
  if (!set) {
    const name = addDataSet(doc, col.table, source, command, []);
    set = dataSets(doc).find((s) => s.name === name)!;
  }
  const dataField = `${col.table}[${col.column}]`;
  const typeName = typeNameOf(col.dataType);
  const existing = set.fields.find((f) => f.dataField === dataField);
  if (existing) return { dataSet: set.name, field: existing.name, numeric: isNumericType(existing.typeName ?? typeName) };
  let name = fieldName(col.column);
  for (let n = 1; set.fields.some((f) => f.name === name); n++) name = `${fieldName(col.column)}${n}`;
  addField(doc, set.name, { name, dataField, typeName });
  return { dataSet: set.name, field: name, numeric: isNumericType(typeName) };
}

/**
 * Writes a data set as the data set dialog edits it: a new one is added; an existing one gets its query and source,
 * and its fields removed, changed (by their original name) and added as listed.
 */
export function saveDataSet(
  doc: RdlDocument,
  form: {
    name: string;
    dataSource: string;
    commandText: string;
    fields: Array<{ name: string; dataField: string; original?: string }>;
    filters?: FilterSpec[];
  },
  isNew: boolean,
): void {
  if (isNew) {
    const name = addDataSet(doc, form.name, form.dataSource, form.commandText, []);
    for (const f of form.fields) addField(doc, name, { name: f.name, dataField: f.dataField });
    if (form.filters?.length) setDataSetFilters(doc, name, form.filters);
    return;
  }
  setQuery(doc, form.name, { commandText: form.commandText, dataSource: form.dataSource });
  const kept = new Set(form.fields.map((f) => f.original).filter(Boolean));
  for (const f of dataSets(doc).find((s) => s.name === form.name)?.fields ?? []) if (!kept.has(f.name)) removeField(doc, form.name, f.name);
  for (const f of form.fields) {
    if (f.original) updateField(doc, form.name, f.original, { name: f.name, dataField: f.dataField });
    else addField(doc, form.name, { name: f.name, dataField: f.dataField });
  }
  const before = JSON.stringify(dataSets(doc).find((s) => s.name === form.name)?.filters ?? []);
  if (form.filters && JSON.stringify(form.filters) !== before) setDataSetFilters(doc, form.name, form.filters);
}
