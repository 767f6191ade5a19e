/** Renders rows as an aligned text table with a header. */
export function table(rows: Array<Record<string, unknown>>, columns: string[]): string {
  if (!rows.length) return '(none)';
  const cell = (v: unknown) =>
    v === undefined || v === null ? '' : Array.isArray(v) ? v.join(',') : typeof v === 'object' ? JSON.stringify(v) : String(v);
  const cells = rows.map((r) => columns.map((c) => cell(r[c])));
  const widths = columns.map((c, i) => Math.min(80, Math.max(c.length, ...cells.map((r) => r[i]!.length))));
  const line = (vals: string[]) =>
    vals
      .map((v, i) => (v.length > widths[i]! ? `${v.slice(0, widths[i]! - 1)}…` : v.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.toUpperCase())), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

/** Renders one object as `key: value` lines. */
export function fields(obj: Record<string, unknown>, keys: string[]): string {
  const width = Math.max(...keys.map((k) => k.length));
  return keys
    .filter((k) => obj[k] !== undefined)
    .map(
      (k) =>
        `${k.padEnd(width)}  ${Array.isArray(obj[k]) ? (obj[k] as unknown[]).join('; ') : typeof obj[k] === 'object' ? JSON.stringify(obj[k]) : String(obj[k])}`,
    )
    .join('\n');
}
