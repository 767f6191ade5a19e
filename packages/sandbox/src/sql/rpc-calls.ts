import type { Emitted, Session, SqlEngine } from './engine.js';
import { SqlServerError, sqlError } from './errors.js';
import type { RpcParameter, RpcRequest } from './protocol/rpc.js';

/** What an RPC produced: the statements' results, the OUTPUT values to return, and the T-SQL it ran (for the request log). */
export interface RpcOutcome {
  items: Emitted[];
  outputs: Array<{ ordinal: number; name: string; value: number }>;
  text: string;
}

/** A statement sp_prepare kept: its parameter declarations and text. */
interface Prepared {
  declarations: string[];
  sql: string;
}

/** The parameter names an @params declaration list declares, in order ('@a int, @b nvarchar(10) OUTPUT' → ['@a', '@b']). */
export function declaredNames(params: unknown): string[] {
  if (typeof params !== 'string' || !params.trim()) return [];
  const names: string[] = [];
  let depth = 0;
  let start = 0;
  const items: string[] = [];
  for (let i = 0; i < params.length; i++) {
    if (params[i] === '(') depth++;
    else if (params[i] === ')') depth--;
    else if (params[i] === ',' && depth === 0) {
      items.push(params.slice(start, i));
      start = i + 1;
    }
  }
  items.push(params.slice(start));
  for (const item of items) {
    const m = /^\s*(@[\w@#$]+)\s+\S/.exec(item);
    if (!m) throw sqlError.syntax(item.trim().split(/\s+/)[0] ?? '');
    names.push(m[1]!.toLowerCase());
  }
  return names;
}

/** Binds the values after the fixed parameters: by name when named, else in declaration order. */
function bind(declarations: string[], values: RpcParameter[]): Map<string, unknown> {
  const variables = new Map<string, unknown>();
  values.forEach((p, i) => {
    const name = p.name ? p.name.toLowerCase() : declarations[i];
    if (!name || !declarations.includes(name)) {
      throw new SqlServerError(8145, 1, 16, `${p.name || `@P${i + 1}`} is not a parameter for procedure sp_executesql.`);
    }
    variables.set(name, p.value);
  });
  for (const d of declarations) if (!variables.has(d)) variables.set(d, null);
  return variables;
}

const missing = (proc: string, name: string) =>
  new SqlServerError(201, 4, 16, `Procedure or function '${proc}' expects parameter '${name}', which was not supplied.`);

/** The RPC procedures a client's driver sends: sp_executesql, sp_prepare / sp_execute / sp_prepexec / sp_unprepare. */
export class RpcCalls {
  private readonly prepared = new Map<number, Prepared>();
  private nextHandle = 1;

  constructor(private readonly engine: SqlEngine) {}

  run(session: Session, rpc: RpcRequest): RpcOutcome {
    const [first, second, third, ...rest] = rpc.parameters;
    switch (rpc.procedure) {
      case 'sp_executesql': {
        if (typeof first?.value !== 'string') throw missing('sp_executesql', '@statement');
        const declarations = declaredNames(second?.value);
        const values = rpc.parameters.slice(2);
        return this.execute(session, first.value, declarations, values);
      }
      case 'sp_prepare':
      case 'sp_prepexec': {
        if (typeof third?.value !== 'string') throw missing(rpc.procedure, '@stmt');
        const handle = this.nextHandle++;
        const declarations = declaredNames(second?.value);
        this.prepared.set(handle, { declarations, sql: third.value });
        const outputs = [{ ordinal: 0, name: first?.name || '@handle', value: handle }];
        if (rpc.procedure === 'sp_prepare') return { items: [], outputs, text: third.value };
        return { ...this.execute(session, third.value, declarations, rest), outputs };
      }
      case 'sp_execute': {
        const statement = this.prepared.get(Number(first?.value));
        if (!statement) throw new SqlServerError(8179, 1, 16, `Could not find prepared statement with handle ${String(first?.value)}.`);
        return this.execute(session, statement.sql, statement.declarations, rpc.parameters.slice(1));
      }
      case 'sp_unprepare':
        this.prepared.delete(Number(first?.value));
        return { items: [], outputs: [], text: '' };
      default:
        throw sqlError.procMissing(rpc.procedure);
    }
  }

  private execute(session: Session, sql: string, declarations: string[], values: RpcParameter[]): RpcOutcome {
    const variables = bind(declarations, values);
    return { items: this.engine.run({ ...session, variables }, sql), outputs: [], text: sql };
  }
}
