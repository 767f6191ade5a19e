/** Parses CSV as `.ingest inline` reads it: comma-separated, "" escapes a quote, quoted fields may span lines. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let any = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
      continue;
    }
    if (c === '"' && field === '') {
      quoted = true;
      any = true;
    } else if (c === ',') {
      row.push(field);
      field = '';
      any = true;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      if (any || field !== '') {
        row.push(field);
        rows.push(row);
      }
      row = [];
      field = '';
      any = false;
    } else {
      field += c;
      any = true;
    }
  }
  if (any || field !== '') {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
