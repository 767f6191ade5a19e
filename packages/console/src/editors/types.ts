/** What every content editor takes: the draft content and a setter for the next draft. */
export interface EditorProps {
  value: unknown;
  onChange: (next: unknown) => void;
  label: string;
}

export const asObject = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
export const asArray = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);

export const mono = { fontFamily: 'Consolas, "Cascadia Mono", "Courier New", monospace', fontSize: 13 } as const;
