import { kid, kids, localName, parseXml, type XmlElement } from './xml.js';

/** The RDL 2016/01 report definition namespace. */
export const RDL_2016_NS = 'http://schemas.microsoft.com/sqlserver/reporting/2016/01/reportdefinition';

const PARAMETER_TYPES = ['Boolean', 'DateTime', 'Integer', 'Float', 'String'];
const GLOBALS = ['ExecutionTime', 'ReportName', 'ReportFolder', 'ReportServerUrl', 'PageNumber', 'TotalPages', 'OverallPageNumber', 'OverallTotalPages', 'PageName', 'RenderFormat'];
const PAGE_ONLY_GLOBALS = ['PageNumber', 'TotalPages', 'OverallPageNumber', 'OverallTotalPages', 'PageName'];

/** What a report definition declares: data sources, data sets with fields, and parameters. */
export interface RdlSummary {
  dataSources: { name: string; provider: string; connectString: string }[];
  dataSets: { name: string; dataSource: string; commandText: string; fields: { name: string; dataField: string }[] }[];
  parameters: { name: string; dataType: string; multiValue: boolean; validValues: number }[];
}

const text = (el: XmlElement | undefined) => el?.text.trim() ?? '';

/** Checks that `rdl` is a well-formed RDL 2016/01 report whose sections, data and expressions hang together; throws an Error naming the fault. */
export function checkRdl(rdl: string): RdlSummary {
  let root: XmlElement;
  try {
    root = parseXml(rdl);
  } catch (err) {
    throw new Error(`RDL is not well-formed XML: ${(err as Error).message}`);
  }
  if (localName(root.name) !== 'Report') throw new Error(`RDL root element is <${root.name}>, not <Report>`);
  if (root.attrs.xmlns !== RDL_2016_NS) throw new Error(`RDL namespace is '${root.attrs.xmlns ?? ''}', not the 2016/01 report definition namespace`);

  const sections = kids(kid(root, 'ReportSections'), 'ReportSection');
  if (sections.length === 0) throw new Error('RDL has no ReportSections/ReportSection');
  sections.forEach((s, n) => {
    if (!text(kid(kid(s, 'Body'), 'Height'))) throw new Error(`RDL ReportSection ${n + 1} has no Body/Height`);
    if (!text(kid(s, 'Width'))) throw new Error(`RDL ReportSection ${n + 1} has no Width`);
    if (!kid(s, 'Page')) throw new Error(`RDL ReportSection ${n + 1} has no Page`);
  });

  const dataSources = kids(kid(root, 'DataSources'), 'DataSource').map((d) => {
    if (kid(d, 'DataSourceReference')) throw new Error(`RDL DataSource '${d.attrs.Name}' uses a shared data source, which the reporting service does not support`);
    const cp = kid(d, 'ConnectionProperties');
    const ds = { name: d.attrs.Name ?? '', provider: text(kid(cp, 'DataProvider')), connectString: text(kid(cp, 'ConnectString')) };
    if (!ds.name || !ds.provider || !ds.connectString) throw new Error(`RDL DataSource '${ds.name}' needs a Name, DataProvider and ConnectString`);
    return ds;
  });
  const dataSets = kids(kid(root, 'DataSets'), 'DataSet').map((d) => {
    const query = kid(d, 'Query');
    const set = {
      name: d.attrs.Name ?? '',
      dataSource: text(kid(query, 'DataSourceName')),
      commandText: text(kid(query, 'CommandText')),
      fields: kids(kid(d, 'Fields'), 'Field').map((f) => ({ name: f.attrs.Name ?? '', dataField: text(kid(f, 'DataField')) || text(kid(f, 'Value')) })),
    };
    if (!dataSources.some((s) => s.name === set.dataSource)) throw new Error(`RDL DataSet '${set.name}' names data source '${set.dataSource}', which is not declared`);
    if (!set.commandText) throw new Error(`RDL DataSet '${set.name}' has no Query/CommandText`);
    if (set.fields.length === 0 || set.fields.some((f) => !f.name || !f.dataField)) throw new Error(`RDL DataSet '${set.name}' needs Fields, each with a Name and a DataField or Value`);
    return set;
  });
  const parameters = kids(kid(root, 'ReportParameters'), 'ReportParameter').map((p) => {
    const param = {
      name: p.attrs.Name ?? '',
      dataType: text(kid(p, 'DataType')),
      multiValue: text(kid(p, 'MultiValue')).toLowerCase() === 'true',
      validValues: kids(kid(kid(p, 'ValidValues'), 'ParameterValues'), 'ParameterValue').length,
    };
    if (!PARAMETER_TYPES.includes(param.dataType)) throw new Error(`RDL ReportParameter '${param.name}' has DataType '${param.dataType}'; expected ${PARAMETER_TYPES.join(', ')}`);
    const ref = kid(kid(p, 'ValidValues'), 'DataSetReference');
    if (ref && !dataSets.some((s) => s.name === text(kid(ref, 'DataSetName')))) throw new Error(`RDL ReportParameter '${param.name}' takes valid values from an undeclared data set`);
    return param;
  });

  const fields = new Set(dataSets.flatMap((s) => s.fields.map((f) => f.name)));
  const params = new Set(parameters.map((p) => p.name));
  for (const m of rdl.matchAll(/Fields!(\w+)\.Value/g)) if (!fields.has(m[1]!)) throw new Error(`RDL expression uses Fields!${m[1]} but no data set declares that field`);
  for (const m of rdl.matchAll(/Parameters!(\w+)\.(Value|Label|Count|IsMultiValue)/g)) if (!params.has(m[1]!)) throw new Error(`RDL expression uses Parameters!${m[1]} but no ReportParameter has that name`);
  for (const m of rdl.matchAll(/Globals!(\w+)/g)) if (!GLOBALS.includes(m[1]!)) throw new Error(`RDL expression uses unknown built-in Globals!${m[1]}`);
  for (const s of sections) {
    const bodyText = JSON.stringify(kid(s, 'Body') ?? {});
    for (const g of PAGE_ONLY_GLOBALS) if (bodyText.includes(`Globals!${g}`)) throw new Error(`RDL uses Globals!${g} in the Body; it is allowed only in the page header or footer`);
  }
  return { dataSources, dataSets, parameters };
}
