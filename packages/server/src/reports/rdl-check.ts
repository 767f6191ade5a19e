import { kid, kids, localName, parseXml, type XmlElement } from '../catalog/xml.js';
import { RDL_2016_NS } from '../catalog/rdl.js';

const PARAMETER_TYPES = ['Boolean', 'DateTime', 'Integer', 'Float', 'String'];

/** A report parameter as the parameter panel needs it. */
export interface RdlParameter {
  name: string;
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

/** A fault of a definition: the line and element it is at, and what is wrong. */
export interface RdlFault {
  line: number;
  element: string;
  message: string;
}

const text = (el: XmlElement | undefined) => el?.text.trim() ?? '';
const flag = (el: XmlElement | undefined) => text(el).toLowerCase() === 'true';

/** 1-based line of an offset. */
function lineAt(src: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < src.length; i++) if (src.charCodeAt(i) === 10) line++;
  return line;
}

/** Lines of every start tag in document order (the parser's pre-order), ignoring comments, CDATA and PIs. */
function startTagLines(src: string): number[] {
  const blanked = src.replace(/<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>/g, (m) => m.replace(/[^\n]/g, ' '));
  const lines: number[] = [];
  let line = 1;
  let last = 0;
  for (const m of blanked.matchAll(/<[A-Za-z_]/g)) {
    for (let i = last; i < m.index!; i++) if (blanked.charCodeAt(i) === 10) line++;
    last = m.index!;
    lines.push(line);
  }
  return lines;
}

function lineMap(root: XmlElement, src: string): Map<XmlElement, number> {
  const lines = startTagLines(src);
  const map = new Map<XmlElement, number>();
  let n = 0;
  const walk = (el: XmlElement) => {
    map.set(el, lines[n++] ?? 1);
    el.children.forEach(walk);
  };
  walk(root);
  return map;
}

/** Parses and checks a definition before it is published; answers every fault with its line and element. */
export function checkDefinition(src: string): { faults: RdlFault[]; parameters: RdlParameter[] } {
  let root: XmlElement;
  try {
    root = parseXml(src);
  } catch (err) {
    const msg = (err as Error).message;
    const at = /at offset (\d+)$/.exec(msg);
    return { faults: [{ line: at ? lineAt(src, Number(at[1])) : 1, element: '', message: `not well-formed XML: ${msg.replace(/ at offset \d+$/, '')}` }], parameters: [] };
  }
  const lines = lineMap(root, src);
  const faults: RdlFault[] = [];
  const fault = (el: XmlElement, message: string) => {
    const name = el.attrs.Name ? `<${localName(el.name)} Name="${el.attrs.Name}">` : `<${localName(el.name)}>`;
    faults.push({ line: lines.get(el) ?? 1, element: name, message });
  };

  if (localName(root.name) !== 'Report') fault(root, 'the root element must be <Report>');
  if (root.attrs.xmlns !== RDL_2016_NS) fault(root, `the namespace must be ${RDL_2016_NS}, not '${root.attrs.xmlns ?? ''}'`);
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

  const sources = new Set<string>();
  for (const d of kids(kid(root, 'DataSources'), 'DataSource')) {
    if (!d.attrs.Name) fault(d, 'the Name attribute is required');
    sources.add(d.attrs.Name ?? '');
    if (kid(d, 'DataSourceReference')) fault(d, 'shared data sources (DataSourceReference) are not supported by the reporting service');
    else if (!kid(d, 'ConnectionProperties')) fault(d, 'ConnectionProperties is required');
    else if (!text(kid(kid(d, 'ConnectionProperties'), 'DataProvider'))) fault(kid(d, 'ConnectionProperties')!, 'DataProvider is required');
  }
  const dataSets = new Set<string>();
  for (const d of kids(kid(root, 'DataSets'), 'DataSet')) {
    if (!d.attrs.Name) fault(d, 'the Name attribute is required');
    dataSets.add(d.attrs.Name ?? '');
    if (kid(d, 'SharedDataSet')) fault(d, 'shared data sets are not supported by the reporting service');
    const query = kid(d, 'Query');
    if (!query) {
      if (!kid(d, 'SharedDataSet')) fault(d, 'Query is required');
      continue;
    }
    const source = text(kid(query, 'DataSourceName'));
    if (!sources.has(source)) fault(kid(query, 'DataSourceName') ?? query, `data source '${source}' is not declared in DataSources`);
  }

  const parameters: RdlParameter[] = [];
  for (const p of kids(kid(root, 'ReportParameters'), 'ReportParameter')) {
    const dataType = text(kid(p, 'DataType'));
    if (!p.attrs.Name) fault(p, 'the Name attribute is required');
    if (!PARAMETER_TYPES.includes(dataType)) fault(kid(p, 'DataType') ?? p, `DataType '${dataType}' is not one of ${PARAMETER_TYPES.join(', ')}`);
    const valid = kid(p, 'ValidValues');
    const def = kid(p, 'DefaultValue');
    for (const ref of [kid(valid, 'DataSetReference'), kid(def, 'DataSetReference')]) {
      if (ref && !dataSets.has(text(kid(ref, 'DataSetName')))) fault(ref, `data set '${text(kid(ref, 'DataSetName'))}' is not declared in DataSets`);
    }
    parameters.push({
      name: p.attrs.Name ?? '',
      dataType,
      prompt: text(kid(p, 'Prompt')) || (p.attrs.Name ?? ''),
      nullable: flag(kid(p, 'Nullable')),
      allowBlank: flag(kid(p, 'AllowBlank')),
      multiValue: flag(kid(p, 'MultiValue')),
      hidden: flag(kid(p, 'Hidden')),
      defaultValues: kids(kid(def, 'Values'), 'Value').map((v) => v.text.trim()),
      validValues: kids(kid(valid, 'ParameterValues'), 'ParameterValue').map((v) => ({ value: text(kid(v, 'Value')), label: text(kid(v, 'Label')) || text(kid(v, 'Value')) })),
      ...(kid(valid, 'DataSetReference') ? { validValuesDataSet: text(kid(kid(valid, 'DataSetReference'), 'DataSetName')) } : {}),
    });
  }
  return { faults, parameters };
}
