import { XmlError, child, children, descendants, escapeXml, parseXml, textAt, type XmlElement } from './xml.js';
import { joinValues, paragraphs } from './rdl-text.js';
import { readFilters, readHierarchy, type RdlHierarchy } from './rdl-tablix.js';

export { joinValues } from './rdl-text.js';
export type { RdlFilter, RdlHierarchy, RdlMember } from './rdl-tablix.js';

const RDL_NAMESPACES = [
  'http://schemas.microsoft.com/sqlserver/reporting/2016/01/reportdefinition',
  'http://schemas.microsoft.com/sqlserver/reporting/2010/01/reportdefinition',
  'http://schemas.microsoft.com/sqlserver/reporting/2008/01/reportdefinition',
];

const PARAMETER_TYPES = ['Boolean', 'DateTime', 'Integer', 'Float', 'String'] as const;
export type ParameterType = (typeof PARAMETER_TYPES)[number];

export interface RdlDataSource {
  name: string;
  provider: string;
  connectString: string;
}

export interface RdlDataSet {
  name: string;
  dataSourceName: string;
  commandText: string;
  fields: Array<{ name: string; dataField: string }>;
  /** Rows carried in the definition (an XML data source's inline `<XmlData>`); empty otherwise. */
  rows: Array<Record<string, string>>;
  /** Data set filters (expression, operator, values), applied to the rows when rendering. */
  filters: Array<{ expression: string; operator: string; values: string[] }>;
  /** Query parameters: `@Name` in the command text and the expression giving its value. */
  queryParameters: Array<{ name: string; value: string }>;
}

export interface RdlParameter {
  name: string;
  dataType: ParameterType;
  nullable: boolean;
  allowBlank: boolean;
  multiValue: boolean;
  hidden: boolean;
  prompt: string;
  defaults?: string[];
  validValues?: Array<{ value: string; label: string }>;
  /** Defaults and valid values read from a data set's rows (DataSetReference: its value and label fields). */
  defaultsFrom?: QueryValues;
  validValuesFrom?: QueryValues;
}

/** A DataSetReference of a parameter: the data set and the fields its values (and labels) come from. */
export interface QueryValues {
  dataSet: string;
  valueField: string;
  labelField?: string;
}

export interface RdlTextbox {
  name: string;
  /** Each paragraph's expression or literal text (TextRun values joined). */
  paragraphs: string[];
  region: 'body' | 'header' | 'footer';
}

export interface RdlTable {
  name: string;
  dataSetName: string;
  /** Rows of cell values (expressions or literals); the first row is taken as the header. */
  rows: string[][];
  /** The name of each cell's text box (error messages name it). */
  cellNames?: string[][];
  /** Row and column hierarchies, when the tablix groups (see render/tablix.ts); absent for a flat table. */
  hierarchy?: RdlHierarchy;
}

/** What the renderers and the API read from a definition. */
export interface RdlModel {
  namespace: string;
  description?: string;
  dataSources: RdlDataSource[];
  dataSets: RdlDataSet[];
  parameters: RdlParameter[];
  textboxes: RdlTextbox[];
  tables: RdlTable[];
  pageHeight: string;
  pageWidth: string;
}

/** A validation problem: the line, the element and what is wrong. */
export class RdlError extends Error {
  constructor(
    readonly detail: string,
    readonly line: number,
    readonly element: string,
  ) {
    super(`line ${line}, element <${element}>: ${detail}`);
  }
}

const SIZE = /^\s*\d+(\.\d+)?\s*(in|cm|mm|pt|pc)\s*$/;

function requireChild(el: XmlElement, local: string): XmlElement {
  const c = child(el, local);
  if (!c) throw new RdlError(`<${el.local}> requires a <${local}> element`, el.line, el.local);
  return c;
}

function requireSize(el: XmlElement, local: string): string {
  const c = requireChild(el, local);
  if (!SIZE.test(c.text)) throw new RdlError(`'${c.text.trim()}' is not a size (a number followed by in, cm, mm, pt or pc)`, c.line, local);
  return c.text.trim();
}

/** Rows of an XML data set's inline data: `<Query><XmlData><Root><Row a="1"/>…` (attributes or child elements). */
function inlineRows(commandText: string): Array<Record<string, string>> {
  if (!/^\s*<Query[\s>]/.test(commandText)) return [];
  try {
    const q = parseXml(commandText);
    const data = child(q, 'XmlData');
    const top = data?.children[0];
    if (!top) return [];
    return top.children.map((row) => {
      const rec: Record<string, string> = { ...row.attrs };
      for (const c of row.children) rec[c.local] = c.text.trim();
      return rec;
    });
  } catch {
    return [];
  }
}

function readParameter(p: XmlElement): RdlParameter {
  const name = p.attrs.Name;
  if (!name) throw new RdlError('a <ReportParameter> needs a Name attribute', p.line, 'ReportParameter');
  const dt = child(p, 'DataType');
  if (!dt) throw new RdlError(`parameter '${name}' requires a <DataType>`, p.line, 'ReportParameter');
  const dataType = dt.text.trim();
  if (!(PARAMETER_TYPES as readonly string[]).includes(dataType))
    throw new RdlError(
      `parameter '${name}' has DataType '${dataType}'; it must be one of ${PARAMETER_TYPES.join(', ')}`,
      dt.line,
      'DataType',
    );
  const flag = (local: string) => textAt(p, local)?.toLowerCase() === 'true';
  const defaultValues = child(child(p, 'DefaultValue'), 'Values');
  const valid = child(child(p, 'ValidValues'), 'ParameterValues');
  const fromQuery = (el: XmlElement | undefined) =>
    el
      ? { dataSet: textAt(el, 'DataSetName') ?? '', valueField: textAt(el, 'ValueField') ?? '', labelField: textAt(el, 'LabelField') }
      : undefined;
  return {
    defaultsFrom: fromQuery(child(child(p, 'DefaultValue'), 'DataSetReference')),
    validValuesFrom: fromQuery(child(child(p, 'ValidValues'), 'DataSetReference')),
    name,
    dataType: dataType as ParameterType,
    nullable: flag('Nullable'),
    allowBlank: flag('AllowBlank'),
    multiValue: flag('MultiValue'),
    hidden: flag('Hidden'),
    prompt: textAt(p, 'Prompt') ?? name,
    defaults: defaultValues
      ? children(defaultValues, 'Value').map((v) => (v.attrs['xsi:nil'] === 'true' ? '\u0000null' : v.text.trim()))
      : undefined,
    validValues: valid
      ? children(valid, 'ParameterValue').map((v) => ({
          value: textAt(v, 'Value') ?? '',
          label: textAt(v, 'Label') ?? textAt(v, 'Value') ?? '',
        }))
      : undefined,
  };
}

/** Parses and checks a definition: well-formed XML, an RDL namespace, the required structure and references that resolve. */
export function readRdl(bytes: Buffer | string): RdlModel {
  const source = typeof bytes === 'string' ? bytes : bytes.toString('utf8');
  let root: XmlElement;
  try {
    root = parseXml(source);
  } catch (err) {
    if (err instanceof XmlError)
      throw new RdlError(`the definition is not well-formed XML: ${err.message.replace(/^line \d+: /, '')}`, err.line, 'Report');
    throw err;
  }
  if (root.local !== 'Report')
    throw new RdlError(`the root element is <${root.name}>; a report definition's root is <Report>`, root.line, root.local);
  if (!RDL_NAMESPACES.includes(root.ns))
    throw new RdlError(
      `the namespace '${root.ns || '(none)'}' is not a report definition namespace (expected ${RDL_NAMESPACES[0]})`,
      root.line,
      'Report',
    );
  let sections: XmlElement[];
  if (root.ns === RDL_NAMESPACES[2]) sections = [root];
  else {
    const rs = requireChild(root, 'ReportSections');
    sections = children(rs, 'ReportSection');
    if (!sections.length) throw new RdlError('<ReportSections> requires at least one <ReportSection>', rs.line, 'ReportSections');
  }
  let pageHeight = '11in';
  let pageWidth = '8.5in';
  sections.forEach((s, i) => {
    const body = requireChild(s, 'Body');
    requireSize(body, 'Height');
    requireSize(s, 'Width');
    const page = requireChild(s, 'Page');
    if (i === 0) {
      pageHeight = textAt(page, 'PageHeight') ?? pageHeight;
      pageWidth = textAt(page, 'PageWidth') ?? pageWidth;
    }
  });
  const dataSources = children(child(root, 'DataSources'), 'DataSource').map((d) => {
    if (!d.attrs.Name) throw new RdlError('a <DataSource> needs a Name attribute', d.line, 'DataSource');
    const cp = child(d, 'ConnectionProperties');
    if (!cp) {
      if (child(d, 'DataSourceReference'))
        throw new RdlError(
          `data source '${d.attrs.Name}' is a shared data source reference; shared data sources are not supported in the service`,
          d.line,
          'DataSourceReference',
        );
      throw new RdlError(`data source '${d.attrs.Name}' requires <ConnectionProperties>`, d.line, 'DataSource');
    }
    return { name: d.attrs.Name, provider: textAt(cp, 'DataProvider') ?? '', connectString: textAt(cp, 'ConnectString') ?? '' };
  });
  const sourceNames = new Set(dataSources.map((d) => d.name));
  const dataSets = children(child(root, 'DataSets'), 'DataSet').map((d) => {
    if (!d.attrs.Name) throw new RdlError('a <DataSet> needs a Name attribute', d.line, 'DataSet');
    if (child(d, 'SharedDataSet'))
      throw new RdlError(
        `data set '${d.attrs.Name}' is a shared data set; shared data sets are not supported in the service`,
        d.line,
        'SharedDataSet',
      );
    const q = requireChild(d, 'Query');
    const dsn = child(q, 'DataSourceName');
    if (!dsn) throw new RdlError(`data set '${d.attrs.Name}' requires <Query><DataSourceName>`, q.line, 'Query');
    if (!sourceNames.has(dsn.text.trim()))
      throw new RdlError(
        `data set '${d.attrs.Name}' refers to data source '${dsn.text.trim()}', which the report does not define`,
        dsn.line,
        'DataSourceName',
      );
    const commandText = textAt(q, 'CommandText') ?? '';
    return {
      name: d.attrs.Name,
      dataSourceName: dsn.text.trim(),
      commandText,
      fields: children(child(d, 'Fields'), 'Field').map((f) => ({
        name: f.attrs.Name ?? '',
        dataField: textAt(f, 'DataField') ?? f.attrs.Name ?? '',
      })),
      rows: inlineRows(commandText),
      queryParameters: children(child(q, 'QueryParameters'), 'QueryParameter').map((p) => ({
        name: p.attrs.Name ?? '',
        value: textAt(p, 'Value') ?? '',
      })),
      filters: readFilters(d),
    };
  });
  const setNames = new Set(dataSets.map((d) => d.name));
  const parameters = children(child(root, 'ReportParameters'), 'ReportParameter').map(readParameter);
  for (const p of children(child(root, 'ReportParameters'), 'ReportParameter')) {
    for (const ref of descendants(p, 'DataSetReference')) {
      const n = textAt(ref, 'DataSetName');
      if (!n || !setNames.has(n))
        throw new RdlError(
          `parameter '${p.attrs.Name}' refers to data set '${n ?? ''}', which the report does not define`,
          ref.line,
          'DataSetName',
        );
    }
  }
  const textboxes: RdlTextbox[] = [];
  const tables: RdlTable[] = [];
  const inTable = new Set<XmlElement>();
  for (const s of sections) {
    for (const t of descendants(s, 'Tablix')) {
      const setName = textAt(t, 'DataSetName') ?? '';
      if (setName && !setNames.has(setName))
        throw new RdlError(
          `table '${t.attrs.Name}' refers to data set '${setName}', which the report does not define`,
          child(t, 'DataSetName')!.line,
          'DataSetName',
        );
      const cellNames: string[][] = [];
      const rows = children(child(child(t, 'TablixBody'), 'TablixRows'), 'TablixRow').map((r) => {
        const names: string[] = [];
        cellNames.push(names);
        return children(child(r, 'TablixCells'), 'TablixCell').map((c) => {
          const tb = descendants(c, 'Textbox')[0];
          if (tb) inTable.add(tb);
          names.push(tb?.attrs.Name ?? '');
          return tb ? joinValues(paragraphs(tb), ' ') : '';
        });
      });
      for (const tb of descendants(t, 'Textbox')) inTable.add(tb);
      const hierarchy = readHierarchy(t);
      tables.push({ name: t.attrs.Name ?? 'Table', dataSetName: setName, rows, cellNames, ...(hierarchy ? { hierarchy } : {}) });
    }
    const page = child(s, 'Page');
    const regions: Array<[XmlElement | undefined, RdlTextbox['region']]> = [
      [child(s, 'Body'), 'body'],
      [child(page, 'PageHeader'), 'header'],
      [child(page, 'PageFooter'), 'footer'],
    ];
    for (const [el, region] of regions) {
      if (!el) continue;
      for (const tb of descendants(el, 'Textbox'))
        if (!inTable.has(tb)) textboxes.push({ name: tb.attrs.Name ?? '', paragraphs: paragraphs(tb), region });
    }
  }
  return {
    namespace: root.ns,
    description: textAt(root, 'Description'),
    dataSources,
    dataSets,
    parameters,
    textboxes,
    tables,
    pageHeight,
    pageWidth,
  };
}

/** Key=value pairs of a connection string (keys lower-cased). */
export function parseConnectString(s: string): Map<string, { key: string; value: string }> {
  const out = new Map<string, { key: string; value: string }>();
  for (const part of s.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    if (key) out.set(key.toLowerCase(), { key, value: part.slice(eq + 1).trim() });
  }
  return out;
}

const SERVER_KEYS = ['data source', 'server', 'address', 'addr', 'network address'];
const DATABASE_KEYS = ['initial catalog', 'database'];

/** The REST datasourceType for an RDL DataProvider. */
export function datasourceType(provider: string): string {
  const p = provider.toUpperCase();
  if (p === 'SQL' || p === 'SQLAZURE' || p === 'SQLPDW') return 'Sql';
  if (p === 'PBIDATASET' || p === 'OLEDB-MD') return 'AnalysisServices';
  if (p === 'ODBC') return 'ODBC';
  if (p === 'OLEDB') return 'OleDb';
  if (p === 'ORACLE') return 'Oracle';
  if (p === 'XML') return 'Xml';
  if (p === 'ENTERDATA') return 'EnterData';
  return provider || 'Unknown';
}

/** server/database (or url) of a data source, as GET datasources reports them. */
export function connectionDetails(ds: RdlDataSource): Record<string, string> {
  const kv = parseConnectString(ds.connectString);
  const pick = (keys: string[]) => keys.map((k) => kv.get(k)?.value).find((v) => v !== undefined);
  if (datasourceType(ds.provider) === 'Xml') return ds.connectString ? { url: ds.connectString } : {};
  const out: Record<string, string> = {};
  const server = pick(SERVER_KEYS);
  const database = pick(DATABASE_KEYS);
  if (server !== undefined) out.server = server;
  if (database !== undefined) out.database = database;
  return out;
}

/** A connection string with its server and/or database replaced (keys kept as written, added when absent). */
export function rewriteConnectString(s: string, server?: string, database?: string): string {
  const parts = s
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean);
  const set = (keys: string[], name: string, value: string | undefined) => {
    if (value === undefined) return;
    const i = parts.findIndex((p) => keys.includes(p.slice(0, p.indexOf('=')).trim().toLowerCase()));
    if (i >= 0) parts[i] = `${parts[i]!.slice(0, parts[i]!.indexOf('=')).trim()}=${value}`;
    else parts.push(`${name}=${value}`);
  };
  set(SERVER_KEYS, 'Data Source', server);
  set(DATABASE_KEYS, 'Initial Catalog', database);
  return parts.join(';');
}

/** The definition with one data source's ConnectString replaced; every other byte stays as it was. */
export function replaceConnectString(source: string, dataSourceName: string, connectString: string): string {
  const re = new RegExp(
    `(<(?:\\w+:)?DataSource\\s+Name\\s*=\\s*["']${dataSourceName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}["'][\\s\\S]*?<(?:\\w+:)?ConnectString>)([\\s\\S]*?)(</(?:\\w+:)?ConnectString>)`,
  );
  return source.replace(re, (_m, a: string, _old: string, c: string) => `${a}${escapeXml(connectString)}${c}`);
}
