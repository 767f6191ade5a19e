import type { LineDiagnostic } from './code';

/** What every content editor takes: the draft content and a setter for the next draft. */
export interface EditorProps {
  value: unknown;
  onChange: (next: unknown) => void;
  label: string;
  /** A caller who cannot save sees the content in read-only editors. */
  readOnly?: boolean;
  /** The content field the service refused (a JSON pointer below content, e.g. /cells/0/source) and why. */
  fieldError?: FieldError;
  /** Told the parse error while the editor's text cannot become content (JSON), undefined once it can. */
  onValidity?: (error: string | undefined) => void;
}

/** A refused content field: its JSON pointer below `content` and the service's message. */
export interface FieldError {
  path: string;
  message: string;
}

export const asObject = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
export const asArray = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);

export const mono = { fontFamily: 'Consolas, "Cascadia Mono", "Courier New", monospace', fontSize: 13 } as const;

/** The part of a refused field's path below a prefix (/cells/2/source under /cells/2), or undefined when it is elsewhere. */
export function fieldUnder(error: FieldError | undefined, prefix: string): FieldError | undefined {
  if (!error || (error.path !== prefix && !error.path.startsWith(`${prefix}/`))) return undefined;
  return { path: error.path.slice(prefix.length), message: error.message };
}

/** A refused field as a problem on the first line of the editor that shows it. */
export function problemsAt(error: FieldError | undefined): LineDiagnostic[] | undefined {
  return error ? [{ line: 1, message: error.message, source: 'the service' }] : undefined;
}
