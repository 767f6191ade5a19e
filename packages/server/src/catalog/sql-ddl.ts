// A small reader of the warehouse content's T-SQL DDL and dbt-style model SQL: enough to check names, not a parser of T-SQL.

/** A table a CREATE TABLE statement declares. */
export interface SqlTable {
  schema: string;
  name: string;
  columns: { name: string; type: string }[];
}

const CONSTRAINT_START = /^(CONSTRAINT|PRIMARY|UNIQUE|INDEX|FOREIGN|CHECK)\b/i;
const IDENT = String.raw`\[?([A-Za-z_][A-Za-z0-9_]*)\]?`;

/** Splits `body` at commas outside parentheses. */
function splitTopLevel(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of body) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(cur);
      cur = '';
    } else cur += ch;
  }
  parts.push(cur);
  return parts.map((p) => p.trim()).filter(Boolean);
}

/** Reads CREATE SCHEMA and CREATE TABLE statements; throws an Error naming the statement it cannot read. */
export function parseDdl(statements: readonly string[]): { schemas: Set<string>; tables: SqlTable[] } {
  const schemas = new Set<string>(['dbo']);
  const tables: SqlTable[] = [];
  for (const [i, raw] of statements.entries()) {
    const stmt = raw.trim().replace(/;$/, '');
    const schema = new RegExp(`^CREATE\\s+SCHEMA\\s+${IDENT}$`, 'i').exec(stmt);
    if (schema) {
      schemas.add(schema[1]!);
      continue;
    }
    if (/^ALTER\s+TABLE\b/i.test(stmt)) continue;
    const head = new RegExp(`^CREATE\\s+TABLE\\s+(?:${IDENT}\\.)?${IDENT}\\s*\\(`, 'i').exec(stmt);
    if (!head) throw new Error(`ddl[${i}] is not CREATE SCHEMA, CREATE TABLE or ALTER TABLE: '${stmt.slice(0, 60)}'`);
    let depth = 1;
    let end = head[0].length;
    for (; end < stmt.length && depth > 0; end++) {
      if (stmt[end] === '(') depth++;
      if (stmt[end] === ')') depth--;
    }
    if (depth !== 0) throw new Error(`ddl[${i}] has unbalanced parentheses`);
    const columns = splitTopLevel(stmt.slice(head[0].length, end - 1))
      .filter((p) => !CONSTRAINT_START.test(p))
      .map((p) => {
        const m = new RegExp(`^${IDENT}\\s+([A-Za-z0-9_]+(?:\\s*\\([^)]*\\))?)`).exec(p);
        if (!m) throw new Error(`ddl[${i}] has a column definition it cannot read: '${p}'`);
        return { name: m[1]!, type: m[2]!.replace(/\s+/g, '') };
      });
    tables.push({ schema: head[1] ?? 'dbo', name: head[2]!, columns });
  }
  return { schemas, tables };
}

/** The jinja calls of a dbt model's SQL: refs, sources and config arguments; throws on any other jinja. */
export function readJinja(sql: string): { refs: string[]; sources: [string, string][]; config: Record<string, string> } {
  const refs: string[] = [];
  const sources: [string, string][] = [];
  const config: Record<string, string> = {};
  if (/\{%|\{#/.test(sql))
    throw new Error('uses jinja statements or comments; only {{ ref() }}, {{ source() }} and {{ config() }} are supported');
  for (const m of sql.matchAll(/\{\{([\s\S]*?)\}\}/g)) {
    const call = m[1]!.trim();
    const ref = /^ref\(\s*'([^']+)'\s*\)$/.exec(call);
    const source = /^source\(\s*'([^']+)'\s*,\s*'([^']+)'\s*\)$/.exec(call);
    const cfg = /^config\(([^)]*)\)$/.exec(call);
    if (ref) refs.push(ref[1]!);
    else if (source) sources.push([source[1]!, source[2]!]);
    else if (cfg) for (const a of cfg[1]!.matchAll(/(\w+)\s*=\s*'([^']*)'/g)) config[a[1]!] = a[2]!;
    else throw new Error(`has unsupported jinja '{{ ${call} }}'`);
  }
  return { refs, sources, config };
}
