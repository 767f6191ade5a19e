import type { Stmt } from './ast.js';
import { catalogView } from './catalog-views.js';
import type { Emitted, Session, SqlEngine } from './engine.js';
import { SqlServerError, sqlError } from './errors.js';
import { dropExternal } from './external.js';
import { findObject, newId, resolveName, type SqlDatabase } from './state.js';
import { bindView } from './view-columns.js';
import { referencedObjects } from './view-refs.js';

/** CREATE VIEW / ALTER VIEW: every object the body reads exists, its qualified columns bind, its columns are named. */
export function createView(engine: SqlEngine, session: Session, db: SqlDatabase, s: Stmt & { t: 'createView' }, out: Emitted[]) {
  const ref = engine.ref(s.name, session);
  if (!engine.can(session, db, 'ddl')) throw sqlError.createPermission(s.mode === 'alter' ? 'ALTER VIEW' : 'CREATE VIEW', db.name);
  const schema = db.schemas.get(ref.schema.toLowerCase());
  if (!schema) throw sqlError.schemaMissing(ref.schema);
  const existing = schema.objects.get(ref.name.toLowerCase());
  if (existing && (s.mode === 'create' || existing.kind !== 'view')) throw sqlError.objectExists(ref.name);
  if (!existing && s.mode === 'alter') throw sqlError.invalidObject(ref.written);
  for (const parts of referencedObjects(s.body)) {
    const target = engine.ref(parts, session);
    if (
      !findObject(engine.state, target) &&
      !(engine.state.databases.has(target.database.toLowerCase()) && catalogView(db, target.schema, target.name))
    ) {
      throw sqlError.invalidObject(target.written);
    }
  }
  const columns = bindView(s.body, (parts) => {
    const target = resolveName(parts, session.database);
    const o = findObject(engine.state, target);
    if (o?.kind === 'table' || o?.kind === 'view') return o.columns.map((c) => (typeof c === 'string' ? c : c.name));
    return catalogView(db, target.schema, target.name)?.columns.map((c) => c.name);
  });
  const view =
    existing?.kind === 'view'
      ? existing
      : { kind: 'view' as const, id: newId(), schema: schema.name, name: ref.name, definition: '', text: '', alteredCount: -1, columns };
  Object.assign(view, { definition: s.body, text: s.text, alteredCount: view.alteredCount + 1, columns });
  schema.objects.set(ref.name.toLowerCase(), view);
  out.push({ t: 'done' });
}

/** DROP TABLE / VIEW / SCHEMA / USER / EXTERNAL TABLE / EXTERNAL DATA SOURCE / EXTERNAL FILE FORMAT. */
export function drop(engine: SqlEngine, session: Session, db: SqlDatabase, s: Stmt & { t: 'drop' }, out: Emitted[]) {
  if (!engine.can(session, db, s.kind === 'USER' ? 'access' : 'ddl')) throw sqlError.noPermission();
  for (const parts of s.names) {
    const ref = engine.ref(parts, session);
    if (s.kind === 'EXTERNAL DATA SOURCE' || s.kind === 'EXTERNAL FILE FORMAT') {
      dropExternal(db, s.kind, ref.name, s.ifExists);
      continue;
    }
    if (s.kind === 'USER' || s.kind === 'SCHEMA') {
      const map = s.kind === 'USER' ? db.users : db.schemas;
      if (!map.has(ref.name.toLowerCase()) && !s.ifExists)
        throw new SqlServerError(
          15151,
          1,
          16,
          `Cannot drop the ${s.kind.toLowerCase()} '${ref.name}', because it does not exist or you do not have permission.`,
        );
      const schema = db.schemas.get(ref.name.toLowerCase());
      if (s.kind === 'SCHEMA' && schema?.objects.size)
        throw new SqlServerError(
          3729,
          1,
          16,
          `Cannot drop schema '${ref.name}' because it is being referenced by object '${[...schema.objects.values()][0]!.name}'.`,
        );
      map.delete(ref.name.toLowerCase());
      if (s.kind === 'USER') for (const members of db.roles.values()) members.delete(ref.name.toLowerCase());
      continue;
    }
    const o = findObject(engine.state, ref);
    const wanted = s.kind === 'VIEW' ? o?.kind === 'view' : o?.kind === 'table' && Boolean(o.external) === (s.kind === 'EXTERNAL TABLE');
    if (!o || !wanted) {
      if (s.ifExists) continue;
      throw new SqlServerError(
        3701,
        5,
        11,
        `Cannot drop the ${s.kind.toLowerCase()} '${ref.written}', because it does not exist or you do not have permission.`,
      );
    }
    const schema = db.schemas.get(o.schema.toLowerCase())!;
    schema.objects.delete(o.name.toLowerCase());
    for (const [k, c] of schema.objects) if (c.kind === 'constraint' && c.table === o.name) schema.objects.delete(k);
  }
  out.push({ t: 'done' });
}
