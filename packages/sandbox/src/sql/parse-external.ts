import type { ColumnDef, ConstraintDef, Stmt } from './ast.js';
import type { Cursor } from './cursor.js';

/**
 * CREATE EXTERNAL DATA SOURCE name WITH (TYPE = HADOOP, LOCATION = 'abfss://…'),
 * CREATE EXTERNAL FILE FORMAT name WITH (FORMAT_TYPE = PARQUET, …),
 * CREATE EXTERNAL TABLE name (columns) WITH (LOCATION = '…', DATA_SOURCE = ds, FILE_FORMAT = ff): the dedicated SQL
 * pool's (PolyBase) forms, with the cursor on EXTERNAL.
 */
export function createExternal(c: Cursor, column: (c: Cursor, constraints: ConstraintDef[]) => ColumnDef): Stmt {
  c.expectKw('EXTERNAL');
  if (c.acceptKw('DATA', 'SOURCE')) return { t: 'createExternal', kind: 'DATA SOURCE', name: c.ident(), options: withOptions(c) };
  if (c.acceptKw('FILE', 'FORMAT')) return { t: 'createExternal', kind: 'FILE FORMAT', name: c.ident(), options: withOptions(c) };
  c.expectKw('TABLE');
  const name = c.name();
  const columns: ColumnDef[] = [];
  c.expectOp('(');
  do columns.push(column(c, []));
  while (c.acceptOp(','));
  c.expectOp(')');
  return { t: 'createExternalTable', name, columns, options: withOptions(c) };
}

/** WITH ( KEY = value, … ): values as written without quotes; a parenthesised value (FORMAT_OPTIONS) as its text. */
function withOptions(c: Cursor): Record<string, string> {
  c.expectKw('WITH');
  c.expectOp('(');
  const options: Record<string, string> = {};
  do {
    const key = c.ident().toUpperCase();
    if (c.isOp('(')) {
      const start = c.peek()!.start;
      c.skipParens();
      options[key] = c.src.slice(start, c.toks[c.i - 1]!.end);
      continue;
    }
    c.expectOp('=');
    const v = c.peek();
    if (!v || v.k === 'op') c.fail();
    c.i++;
    options[key] = v.v;
  } while (c.acceptOp(','));
  c.expectOp(')');
  return options;
}
