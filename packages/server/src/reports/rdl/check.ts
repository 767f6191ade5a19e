import { lineAt, lineMap } from './lines.js';
import { kid, kids, localName, parseXml, type XmlElement } from './xml.js';

/** The RDL 2016/01 report definition namespace. */
const RDL_2016_NS = 'http://schemas.microsoft.com/sqlserver/reporting/2016/01/reportdefinition';

/** The data types a report parameter may declare. */
export const RDL_PARAMETER_TYPES = ['Boolean', 'DateTime', 'Integer', 'Float', 'String'] as const;

/** A report parameter's data type. */
export type RdlParameterType = (typeof RDL_PARAMETER_TYPES)[number];

const GLOBALS = [
  'ExecutionTime',
  'ReportName',
  'ReportFolder',
  'ReportServerUrl',
  'PageNumber',
  'TotalPages',
  'OverallPageNumber',
  'OverallTotalPages',
  'PageName',
  'RenderFormat',
];
const PAGE_ONLY_GLOBALS = ['PageNumber', 'TotalPages', 'OverallPageNumber', 'OverallTotalPages', 'PageName'];

/** A fault of a definition: the line and element it is at, and what is wrong. */
export interface RdlFault {
  line: number;
  /** The element as a start tag (`<DataSet Name="Sales">`); empty when the text is not XML. */
  element: string;
  message: string;
}

/** A data source the report declares. */
export interface RdlDataSource {
  name: string;
  provider: string;
  connectString: string;
}

/** A data set: its data source, query and fields (a field's `dataField` is its DataField, or its Value when calculated). */
export interface RdlDataSet {
  name: string;
  dataSource: string;
  commandText: string;
  fields: Array<{ name: string; dataField: string }>;
}

/** A report parameter as the parameter panel needs it. */
export interface RdlParameter {
  name: string;
  /** One of RDL_PARAMETER_TYPES unless a fault says otherwise (a definition read back may be anything). */
  dataType: string;
  prompt: string;
  nullable: boolean;
  allowBlank: boolean;
  multiValue: boolean;
  hidden: boolean;
  defaultValues: string[];
  validValues: Array<{ value: string; label: string }>;
  /** Valid values come from a data set of the report (listed only at render time). */
  validValuesDataSet?: string;
}

/** What a definition declares, and every fault found in it (none: the definition passed). */
export interface RdlCheck {
  faults: RdlFault[];
  dataSources: RdlDataSource[];
  dataSets: RdlDataSet[];
  parameters: RdlParameter[];
}

/** What to check beyond the structure every published definition needs. */
export interface RdlCheckOptions {
  /**
   * Also require what a curated app's report needs to render once installed: a ConnectString per data source, a
   * CommandText and Fields per data set, and expressions that name only declared fields and parameters and known
   * globals, with page-only globals outside the Body.
   */
  complete?: boolean;
}

const text = (el: XmlElement | undefined) => el?.text.trim() ?? '';
const flag = (el: XmlElement | undefined) => text(el).toLowerCase() === 'true';
const isParameterType = (t: string): t is RdlParameterType => (RDL_PARAMETER_TYPES as readonly string[]).includes(t);

/** `line 12, <Page>: …`: a fault as one line of text. */
export const faultText = (f: RdlFault) => `line ${f.line}${f.element ? `, ${f.element}` : ''}: ${f.message}`;

/** Parses and checks an RDL 2016/01 definition; answers what it declares and every fault with its line and element. */
export function checkRdl(src: string, options: RdlCheckOptions = {}): RdlCheck {
  let root: XmlElement;
  try {
    root = parseXml(src);
  } catch (err) {
    const msg = (err as Error).message;
    const at = /at offset (\d+)$/.exec(msg);
    const fault = {
      line: at ? lineAt(src, Number(at[1])) : 1,
      element: '',
      message: `not well-formed XML: ${msg.replace(/ at offset \d+$/, '')}`,
    };
    return { faults: [fault], dataSources: [], dataSets: [], parameters: [] };
  }
  const lines = lineMap(root, src);
  const faults: RdlFault[] = [];
  const fault = (el: XmlElement, message: string) => {
    const name = el.attrs.Name ? `<${localName(el.name)} Name="${el.attrs.Name}">` : `<${localName(el.name)}>`;
    faults.push({ line: lines.get(el) ?? 1, element: name, message });
  };
  const complete = options.complete === true;

  checkReport(root, fault);
  const dataSources = readDataSources(root, fault, complete);
  const dataSets = readDataSets(root, dataSources, fault, complete);
  const parameters = readParameters(root, dataSets, fault);
  if (complete) checkExpressions(root, dataSets, parameters, fault);
  return { faults, dataSources, dataSets, parameters };
}

type Fault = (el: XmlElement, message: string) => void;

/** The root, its namespace and its sections. */
function checkReport(root: XmlElement, fault: Fault) {
  if (localName(root.name) !== 'Report') fault(root, 'the root element must be <Report>');
  if (root.attrs.xmlns !== RDL_2016_NS)
    fault(root, `the namespace is '${root.attrs.xmlns ?? ''}', not the 2016/01 report definition namespace ${RDL_2016_NS}`);
  const sectionsEl = kid(root, 'ReportSections');
  const sections = kids(sectionsEl, 'ReportSection');
  if (!sectionsEl) fault(root, 'ReportSections is required');
  else if (sections.length === 0) fault(sectionsEl, 'at least one ReportSection is required');
  for (const s of sections) {
    const body = kid(s, 'Body');
    if (!body) fault(s, 'Body is required');
    else if (!text(kid(body, 'Height'))) fault(body, 'Height is required');
    if (!text(kid(s, 'Width'))) fault(s, 'Width is required');
    if (!kid(s, 'Page')) fault(s, 'Page is required');
  }
}

function readDataSources(root: XmlElement, fault: Fault, complete: boolean): RdlDataSource[] {
  return kids(kid(root, 'DataSources'), 'DataSource').map((d) => {
    const cp = kid(d, 'ConnectionProperties');
    const source = { name: d.attrs.Name ?? '', provider: text(kid(cp, 'DataProvider')), connectString: text(kid(cp, 'ConnectString')) };
    if (!source.name) fault(d, 'the Name attribute is required');
    if (kid(d, 'DataSourceReference')) fault(d, 'shared data sources (DataSourceReference) are not supported by the reporting service');
    else if (!cp) fault(d, 'ConnectionProperties is required');
    else if (!source.provider) fault(cp, 'DataProvider is required');
    else if (complete && !source.connectString) fault(cp, 'ConnectString is required');
    return source;
  });
}

function readDataSets(root: XmlElement, sources: RdlDataSource[], fault: Fault, complete: boolean): RdlDataSet[] {
  return kids(kid(root, 'DataSets'), 'DataSet').map((d) => {
    const query = kid(d, 'Query');
    const fieldEls = kids(kid(d, 'Fields'), 'Field');
    const set: RdlDataSet = {
      name: d.attrs.Name ?? '',
      dataSource: text(kid(query, 'DataSourceName')),
      commandText: text(kid(query, 'CommandText')),
      fields: fieldEls.map((f) => ({ name: f.attrs.Name ?? '', dataField: text(kid(f, 'DataField')) || text(kid(f, 'Value')) })),
    };
    if (!set.name) fault(d, 'the Name attribute is required');
    if (kid(d, 'SharedDataSet')) fault(d, 'shared data sets are not supported by the reporting service');
    else if (!query) fault(d, 'Query is required');
    if (!query) return set;
    if (!sources.some((s) => s.name === set.dataSource))
      fault(kid(query, 'DataSourceName') ?? query, `data source '${set.dataSource}' is not declared in DataSources`);
    if (!complete) return set;
    if (!set.commandText) fault(query, 'CommandText is required');
    if (fieldEls.length === 0) fault(d, 'Fields is required, with at least one Field');
    fieldEls.forEach((el, n) => {
      if (!set.fields[n]!.name || !set.fields[n]!.dataField) fault(el, 'a Field needs a Name and a DataField or Value');
    });
    return set;
  });
}

function readParameters(root: XmlElement, dataSets: RdlDataSet[], fault: Fault): RdlParameter[] {
  return kids(kid(root, 'ReportParameters'), 'ReportParameter').map((p) => {
    const dataType = text(kid(p, 'DataType'));
    if (!p.attrs.Name) fault(p, 'the Name attribute is required');
    if (!isParameterType(dataType))
      fault(kid(p, 'DataType') ?? p, `DataType '${dataType}' is not one of ${RDL_PARAMETER_TYPES.join(', ')}`);
    const valid = kid(p, 'ValidValues');
    const def = kid(p, 'DefaultValue');
    for (const ref of [kid(valid, 'DataSetReference'), kid(def, 'DataSetReference')]) {
      const name = text(kid(ref, 'DataSetName'));
      if (ref && !dataSets.some((s) => s.name === name)) fault(ref, `data set '${name}' is not declared in DataSets`);
    }
    const validRef = kid(valid, 'DataSetReference');
    return {
      name: p.attrs.Name ?? '',
      dataType,
      prompt: text(kid(p, 'Prompt')) || (p.attrs.Name ?? ''),
      nullable: flag(kid(p, 'Nullable')),
      allowBlank: flag(kid(p, 'AllowBlank')),
      multiValue: flag(kid(p, 'MultiValue')),
      hidden: flag(kid(p, 'Hidden')),
      defaultValues: kids(kid(def, 'Values'), 'Value').map((v) => v.text.trim()),
      validValues: kids(kid(valid, 'ParameterValues'), 'ParameterValue').map((v) => ({
        value: text(kid(v, 'Value')),
        label: text(kid(v, 'Label')) || text(kid(v, 'Value')),
      })),
      ...(validRef ? { validValuesDataSet: text(kid(validRef, 'DataSetName')) } : {}),
    };
  });
}

/** Every expression names a declared field or parameter and a known global; page-only globals stay out of the Body. */
function checkExpressions(root: XmlElement, dataSets: RdlDataSet[], parameters: RdlParameter[], fault: Fault) {
  const fields = new Set(dataSets.flatMap((s) => s.fields.map((f) => f.name)));
  const params = new Set(parameters.map((p) => p.name));
  const walk = (el: XmlElement, inBody: boolean) => {
    for (const m of el.text.matchAll(/Fields!(\w+)\.Value/g))
      if (!fields.has(m[1]!)) fault(el, `the expression uses Fields!${m[1]} but no data set declares that field`);
    for (const m of el.text.matchAll(/Parameters!(\w+)\.(?:Value|Label|Count|IsMultiValue)/g))
      if (!params.has(m[1]!)) fault(el, `the expression uses Parameters!${m[1]} but no ReportParameter has that name`);
    for (const m of el.text.matchAll(/Globals!(\w+)/g)) {
      if (!GLOBALS.includes(m[1]!)) fault(el, `the expression uses unknown built-in Globals!${m[1]}`);
      else if (inBody && PAGE_ONLY_GLOBALS.includes(m[1]!))
        fault(el, `Globals!${m[1]} is allowed only in the page header or footer, not in the Body`);
    }
    for (const c of el.children) walk(c, inBody || (localName(c.name) === 'Body' && localName(el.name) === 'ReportSection'));
  };
  walk(root, false);
}
