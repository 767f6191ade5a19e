import type { LineDiagnostic } from './types';

/** A fault of a refused definition: its line, the element there (a start tag) and what is wrong. */
export interface RdlFault extends LineDiagnostic {
  element?: string;
}

/**
 * The faults a refused definition names (invalid_rdl): the service answers "definition line 12, <DataType>: what is
 * wrong (and 2 more: line 20 <Field>; line 31 <Value>)", the first fault in full and up to three more by line.
 */
export function rdlFaults(message: string): RdlFault[] {
  const first = /^definition line (\d+)(?:, (<[^>]*>))?: ([\s\S]*?)(?: \(and (\d+) more: ([\s\S]*)\))?$/.exec(message);
  if (!first) return [];
  const [, line, element, what = '', , rest] = first;
  const faults: RdlFault[] = [{ line: Number(line), element, message: what, source: 'RDL check' }];
  for (const m of (rest ?? '').matchAll(/line (\d+)(?: (<[^>]*>))?/g)) {
    faults.push({
      line: Number(m[1]),
      element: m[2],
      message: 'another fault (the service details the first one only)',
      source: 'RDL check',
    });
  }
  return faults;
}

/** A fault as one line of text: "Line 12, <DataType>: what is wrong". */
export const faultLine = (f: RdlFault) => `Line ${f.line}${f.element ? `, ${f.element}` : ''}: ${f.message}`;
