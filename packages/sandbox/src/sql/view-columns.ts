import { sqlError } from './errors.js';
import { tokenize, type Tok } from './lexer.js';

/** The columns of what a view reads: a name's column names, or undefined when it names no object. */
export type ColumnsOf = (parts: string[]) => string[] | undefined;

const word = (t: Tok | undefined, ...ws: string[]) => t?.k === 'word' && ws.includes(t.v.toUpperCase());
const ident = (t: Tok | undefined) => t?.k === 'qid' || t?.k === 'word';
const op = (t: Tok | undefined, v: string) => t?.k === 'op' && t.v === v;
const KEYWORDS = new Set([
  'ON',
  'WHERE',
  'JOIN',
  'INNER',
  'LEFT',
  'RIGHT',
  'FULL',
  'CROSS',
  'OUTER',
  'GROUP',
  'ORDER',
  'HAVING',
  'UNION',
  'AS',
  'WITH',
  'SELECT',
  'FROM',
  'AND',
  'OR',
  'END',
  'CASE',
  'WHEN',
  'THEN',
  'ELSE',
  'NOT',
  'IS',
  'NULL',
  'IN',
  'LIKE',
  'BETWEEN',
  'APPLY',
  'OPTION',
]);

/**
 * Checks a view body the way SQL Server binds it when the view is created: every qualified column (alias.column) must
 * exist in the table, external table or view the alias names (207), every qualifier must name one (4104), every
 * output column needs a name (4511). Returns the view's column names. Unqualified columns and CTE or derived-table
 * columns are not checked.
 */
export function bindView(body: string, columnsOf: ColumnsOf): string[] {
  const toks = tokenize(body);
  const scopes = new Map<string, string[] | 'open'>();
  const nameTokens = new Set<number>();
  for (let i = 1; i + 2 < toks.length; i++) {
    if ((word(toks[i - 1], 'WITH') || op(toks[i - 1], ',')) && ident(toks[i]) && word(toks[i + 1], 'AS') && op(toks[i + 2], '('))
      scopes.set(toks[i]!.v.toLowerCase(), 'open');
  }
  for (let i = 0; i < toks.length; i++) {
    if (!word(toks[i], 'FROM', 'JOIN') && !op(toks[i], ',')) continue;
    let j = i + 1;
    if (op(toks[j], '(')) {
      // A derived table: (SELECT …) AS x — its columns are not tracked.
      let depth = 0;
      for (; j < toks.length; j++) {
        if (op(toks[j], '(')) depth++;
        if (op(toks[j], ')') && --depth === 0) break;
      }
      const alias = word(toks[j + 1], 'AS') ? toks[j + 2] : toks[j + 1];
      if (ident(alias) && !KEYWORDS.has(alias!.v.toUpperCase())) scopes.set(alias!.v.toLowerCase(), 'open');
      continue;
    }
    if (!word(toks[i], 'FROM', 'JOIN') || !ident(toks[j]) || KEYWORDS.has(toks[j]!.v.toUpperCase())) continue;
    const parts = [toks[j]!.v];
    nameTokens.add(j);
    while (op(toks[j + 1], '.') && ident(toks[j + 2])) {
      parts.push(toks[j + 2]!.v);
      j += 2;
      nameTokens.add(j);
    }
    if (op(toks[j + 1], '(')) {
      // A table function (a serverless pool's OPENROWSET(…) AS r): its columns are the files', not bound at create.
      let depth = 0;
      let k = j + 1;
      for (; k < toks.length; k++) {
        if (op(toks[k], '(')) depth++;
        if (op(toks[k], ')') && --depth === 0) break;
      }
      const alias = word(toks[k + 1], 'AS') ? toks[k + 2] : toks[k + 1];
      if (ident(alias) && !KEYWORDS.has(alias!.v.toUpperCase())) scopes.set(alias!.v.toLowerCase(), 'open');
      continue;
    }
    const own = scopes.get(parts[0]!.toLowerCase());
    const columns = parts.length === 1 && own === 'open' ? 'open' : (columnsOf(parts) ?? 'open');
    scopes.set(parts[parts.length - 1]!.toLowerCase(), columns);
    const aliasTok = word(toks[j + 1], 'AS') ? toks[j + 2] : toks[j + 1];
    if (ident(aliasTok) && !KEYWORDS.has(aliasTok!.v.toUpperCase())) scopes.set(aliasTok!.v.toLowerCase(), columns);
  }
  for (let i = 0; i + 2 < toks.length; i++) {
    if (nameTokens.has(i) || !ident(toks[i]) || !op(toks[i + 1], '.') || op(toks[i - 1], '.')) continue;
    const column = toks[i + 2]!;
    if (op(column, '*') || op(toks[i + 3], '.') || op(toks[i + 3], '(')) continue;
    const scope = scopes.get(toks[i]!.v.toLowerCase());
    if (!scope) throw sqlError.unboundIdentifier(`${toks[i]!.v}.${column.v}`);
    if (scope !== 'open' && !scope.some((c) => c.toLowerCase() === column.v.toLowerCase())) throw sqlError.invalidColumn(column.v);
  }
  return outputColumns(toks, scopes);
}

/** The names of the outer SELECT list: AS alias, a trailing alias, or a column's own name; `*` expands. */
function outputColumns(toks: Tok[], scopes: Map<string, string[] | 'open'>): string[] {
  let depth = 0;
  let start = -1;
  for (let i = 0; i < toks.length; i++) {
    if (op(toks[i], '(')) depth++;
    else if (op(toks[i], ')')) depth--;
    else if (depth === 0 && word(toks[i], 'SELECT')) {
      start = i + 1;
      break;
    }
  }
  if (start < 0) return [];
  if (word(toks[start], 'DISTINCT', 'ALL')) start++;
  if (word(toks[start], 'TOP')) start += op(toks[start + 1], '(') ? 4 : 2;
  const items: Tok[][] = [[]];
  depth = 0;
  for (let i = start; i < toks.length; i++) {
    const t = toks[i]!;
    if (depth === 0 && (word(t, 'FROM', 'UNION', 'WHERE', 'GROUP', 'ORDER') || op(t, ';'))) break;
    if (op(t, '(')) depth++;
    if (op(t, ')')) depth--;
    if (depth === 0 && op(t, ',')) {
      items.push([]);
      continue;
    }
    items[items.length - 1]!.push(t);
  }
  const names: string[] = [];
  for (const [n, item] of items.entries()) {
    const last = item[item.length - 1];
    const prev = item[item.length - 2];
    if (op(last, '*')) {
      const scope = item.length >= 3 ? scopes.get(item[item.length - 3]!.v.toLowerCase()) : undefined;
      const from = item.length >= 3 ? [scope] : [...scopes.values()];
      for (const s of from) if (Array.isArray(s)) names.push(...s);
      continue;
    }
    if (item.length >= 2 && word(prev, 'AS')) names.push(last!.v);
    else if (item.length >= 2 && last?.k === 'str' && op(prev, '=')) names.push(item[0]!.v);
    else if (ident(last) && (item.length === 1 || op(prev, '.'))) names.push(last!.v);
    else if (
      ident(last) &&
      !KEYWORDS.has(last!.v.toUpperCase()) &&
      prev &&
      (op(prev, ')') || ident(prev) || prev.k === 'num' || prev.k === 'str')
    )
      names.push(last!.v);
    else throw sqlError.noColumnName(n + 1);
  }
  return names;
}
