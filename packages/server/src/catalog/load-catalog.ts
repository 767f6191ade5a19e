import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { ContentFiles } from '../item-types/descriptor.js';
import { findItemType, validationOrder } from '../item-types/index.js';
import { AppCheck, firstDuplicate } from './app-check.js';
import { CatalogError } from './catalog-error.js';
import { validateEdges } from './edges.js';
import { checkBindings } from './bindings.js';
import type { Catalog, CatalogItem, CuratedApp, EdgeKind } from './types.js';

/** The catalog folder of the repository: `<repo>/catalog/apps`. */
export const DEFAULT_CATALOG_DIR = fileURLToPath(new URL('../../../../catalog/apps', import.meta.url));

const Key = Type.String({ pattern: '^[a-z0-9-]+$' });
const Text = Type.String({ minLength: 1 });
const Manifest = Type.Object(
  {
    id: Type.String({ pattern: '^app-[a-z0-9-]+$' }),
    displayName: Text,
    summary: Text,
    description: Text,
    version: Type.String({ pattern: '^\\d+\\.\\d+\\.\\d+$' }),
    items: Type.Array(
      Type.Object(
        {
          key: Key,
          itemType: Text,
          displayName: Type.String({ minLength: 1, maxLength: 256 }),
          description: Type.String({ maxLength: 256 }),
          content: Text,
        },
        { additionalProperties: false },
      ),
    ),
    edges: Type.Array(Type.Object({ from: Text, to: Text, kind: Text }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
type Manifest = Static<typeof Manifest>;

// Each item type's checks run after those of the types they read, so that an item's own fault is the one named.
const VALIDATION_ORDER = validationOrder();

/** Reads and parses a JSON file of an app, failing with the app and item named. */
function readJson(appId: string, itemKey: string | undefined, path: string): unknown {
  if (!existsSync(path)) throw new CatalogError(appId, itemKey, `file ${path} is missing`);
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new CatalogError(appId, itemKey, `file ${path} is not valid JSON: ${(err as Error).message}`);
  }
}

/** A path inside the app folder, or a CatalogError when `rel` leaves it. */
function inside(appDir: string, appId: string, itemKey: string, rel: string): string {
  const abs = resolve(appDir, rel);
  if (!abs.startsWith(appDir + sep)) throw new CatalogError(appId, itemKey, `content path '${rel}' leaves the app folder`);
  return abs;
}

/** Every file under `dir`, relative to it. */
function listFiles(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((n) =>
    statSync(join(dir, n)).isDirectory() ? listFiles(join(dir, n), base) : [relative(base, join(dir, n))],
  );
}

/** Loads one app folder and validates it completely. */
export function loadApp(appDir: string): CuratedApp {
  const folder = appDir.split(sep).pop()!;
  const raw = readJson(folder, undefined, join(appDir, 'app.json'));
  const bad = Value.Errors(Manifest, raw).First();
  if (bad) throw new CatalogError(folder, undefined, `app.json${bad.path || ''}: ${bad.message}`);
  const m = raw as Manifest;
  const fail = (key: string | undefined, problem: string): never => {
    throw new CatalogError(m.id, key, problem);
  };
  if (m.id !== folder) fail(undefined, `app.json id '${m.id}' differs from its folder name '${folder}'`);
  if (m.items.length < 8 || m.items.length > 12) fail(undefined, `has ${m.items.length} items; an app has 8 to 12`);
  const dupKey = firstDuplicate(m.items.map((i) => i.key));
  if (dupKey) fail(dupKey, 'key is used by two items');
  const dupName = firstDuplicate(
    m.items.map((i) => `${i.itemType} '${i.displayName}'`),
    true,
  );
  if (dupName) fail(undefined, `two items are the ${dupName}`);

  const used = new Set(['app.json', 'README.md']);
  const items: CatalogItem[] = m.items.map((i) => {
    const type = findItemType(i.itemType);
    if (!type) return fail(i.key, `itemType '${i.itemType}' is not an item type`);
    if (type.nameRule && !type.nameRule.pattern.test(i.displayName))
      fail(i.key, `${type.id} name '${i.displayName}' ${type.nameRule.rule}`);
    const path = inside(appDir, m.id, i.key, i.content);
    used.add(relative(appDir, path));
    const raw = readJson(m.id, i.key, path);
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) fail(i.key, `${i.content} must hold a JSON object`);
    const err = Value.Errors(type.content, raw).First();
    if (err) fail(i.key, `${i.content}${err.path}: ${err.message}`);
    const files: ContentFiles = {
      read: (rel, what) => {
        const file = inside(appDir, m.id, i.key, rel);
        if (!existsSync(file)) fail(i.key, `${what} ${rel} is missing`);
        used.add(relative(appDir, file));
        return readFileSync(file, 'utf8');
      },
    };
    const content = type.load ? type.load(raw, files) : raw;
    return {
      key: i.key,
      itemType: type.id,
      displayName: i.displayName,
      description: i.description,
      provisioning: type.provision ? 'live' : 'stored',
      content,
    };
  });
  const stray = listFiles(appDir).find((f) => !used.has(f));
  if (stray) fail(undefined, `file ${stray} is not the content of any item`);

  const check = new AppCheck(m.id, new Map(items.map((i) => [i.key, i])));
  for (const type of VALIDATION_ORDER) for (const item of items.filter((i) => i.itemType === type.id)) type.validate?.(check, item);
  for (const item of items) checkBindings(check, item);
  const edges = m.edges.map((e) => ({ from: e.from, to: e.to, kind: e.kind as EdgeKind }));
  validateEdges(check, edges);
  return deepFreeze({
    id: m.id,
    displayName: m.displayName,
    summary: m.summary,
    description: m.description,
    version: m.version,
    items,
    edges,
  });
}

/** Loads every app under `dir` (default `<repo>/catalog/apps`), validating each; throws a CatalogError on the first broken one. */
export function loadCatalog(dir: string = DEFAULT_CATALOG_DIR): Catalog {
  if (!existsSync(dir)) throw new CatalogError('(catalog)', undefined, `folder ${dir} does not exist`);
  const ids = readdirSync(dir)
    .filter((n) => statSync(join(dir, n)).isDirectory())
    .sort();
  if (ids.length === 0) throw new CatalogError('(catalog)', undefined, `folder ${dir} holds no apps`);
  const apps = ids.map((id) => loadApp(join(resolve(dir), id)));
  const byId = new Map(apps.map((a) => [a.id, a]));
  return { apps, get: (appId) => byId.get(appId) };
}

/** `v`, frozen all the way down, so that no consumer changes the shared catalog. */
function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const e of Object.values(v)) deepFreeze(e);
  }
  return v;
}
