import { Type, type Static } from '@sinclair/typebox';
import { part } from '../backends/data-platform.js';
import { BackingError } from '../backends/http-pipeline.js';
import { validateActivator } from '../catalog/validate-consumers.js';
import { raiseGate } from '../backends/failures.js';
import { ensurePlatformItem, platformItemCalls, platformPart, stableGuid, type PlatformKind } from '../provisioning/platform-item.js';
import { Key, Name } from './content-parts.js';
import type { LiveItemType } from './descriptor.js';
import type { ItemTypeId } from './index.js';
import { KqlDatabaseContent } from './kql-database.js';

/** The comparison operators of an activator condition. */
export const ACTIVATOR_OPERATORS = ['>', '<', '==', '!=', '>=', '<='] as const;
/** Activator content: the watched table and its triggers. */
export const ActivatorContent = Type.Object({
  source: Key,
  table: Name,
  triggers: Type.Array(
    Type.Object({
      name: Name,
      condition: Type.Object({ column: Name, operator: Type.Union(ACTIVATOR_OPERATORS.map((o) => Type.Literal(o))), value: Type.Union([Type.String(), Type.Number(), Type.Boolean()]) }),
      action: Type.Object({ kind: Type.Union([Type.Literal('email'), Type.Literal('teams')]), receiver: Name, message: Type.Optional(Type.String()) }),
    }),
    { minItems: 1 },
  ),
});
export type ActivatorContent = Static<typeof ActivatorContent>;

const PLATFORM: PlatformKind = { type: 'Reflex', collection: 'reflexes' };
const SOURCE_KINDS: Partial<Record<ItemTypeId, string>> = { 'kql-database': 'kql', eventhouse: 'kql', eventstream: 'eventstream', lakehouse: 'lakehouse', 'search-index': 'search' };
const TRIGGERS = '/workspaces/{ws}/reflexes/{id}/triggers';

/** activator: POST /workspaces/{ws}/reflexes with ReflexEntities.json, then POST each trigger to /reflexes/{id}/triggers (SPEC.md). */
export const activator: LiveItemType<'activator', typeof ActivatorContent> = {
  id: 'activator',
  displayName: 'Activator',
  description: 'rules that watch a table and notify a receiver',
  icon: 'Alert',
  editor: 'json',
  backing: 'data-platform',
  content: ActivatorContent,
  validate: validateActivator,
  validatesAfter: ['kql-database', 'eventhouse', 'eventstream', 'lakehouse', 'search-index'],
  edges: { from: ['triggers-on'], to: [] },
  dependsOn: (c) => [c.source],
  calls: (c) => [
    ...platformItemCalls(PLATFORM, true),
    { service: 'data-platform', method: 'GET', path: TRIGGERS },
    { service: 'data-platform', method: 'POST', path: TRIGGERS, times: c.triggers.length, when: 'new' },
  ],
  async provision(ctx) {
    const c = ctx.content;
    const source = ctx.app.items.find((i) => i.key === c.source)!;
    const database = source.itemType === 'kql-database' || source.itemType === 'eventhouse' ? ctx.contentOf(c.source, KqlDatabaseContent)?.database ?? null : null;
    const entities = [
      {
        uniqueIdentifier: stableGuid(`${ctx.app.id}/${ctx.item.key}/source`),
        payload: { name: `${source.displayName} ${c.table}`, itemType: source.itemType, itemId: ctx.dependency(c.source)?.resourceId ?? null, database, table: c.table },
        type: `${SOURCE_KINDS[source.itemType] ?? 'item'}Source-v1`,
      },
      ...c.triggers.map((t) => ({ uniqueIdentifier: stableGuid(`${ctx.app.id}/${ctx.item.key}/${t.name}`), payload: { name: t.name, condition: t.condition, action: t.action }, type: 'rule-v1' })),
    ];
    const definition = { format: 'json', parts: [part('ReflexEntities.json', JSON.stringify(entities, null, 2)), platformPart(ctx, 'Reflex')] };
    const { item, created } = await ensurePlatformItem(ctx, { ...PLATFORM, definition });
    const ws = ctx.target.platformWorkspaceId!;
    try {
      const existing = new Set((await ctx.backends.dataPlatform.listTriggers(ws, item.id)).map((t) => t.name.toLowerCase()));
      const triggerIds: Record<string, string> = {};
      for (const t of c.triggers) {
        if (existing.has(t.name.toLowerCase())) { ctx.log(`trigger '${t.name}' exists`); continue; }
        const made = await ctx.backends.dataPlatform.createTrigger(ws, item.id, { name: t.name, source: { itemType: source.itemType, itemId: ctx.dependency(c.source)?.resourceId ?? null, table: c.table, database }, condition: t.condition, action: t.action })
          .catch((err: unknown) => {
            // Another install of the same app created it since the listing: the trigger is there, as wanted.
            if (err instanceof BackingError && err.code === 'TriggerNameAlreadyInUse') return undefined;
            throw err;
          });
        if (!made) { ctx.log(`trigger '${t.name}' exists (created meanwhile)`); continue; }
        triggerIds[t.name] = made.id;
        ctx.log(`trigger '${t.name}' → ${t.action.kind} ${t.action.receiver}`);
      }
      return { status: created ? 'created' : 'exists', resourceId: item.id, secondaryIds: { platformWorkspaceId: ws, ...triggerIds } };
    } catch (err) {
      raiseGate(err, { profile: ctx.profile, gates: { auth: 'data-platform-auth' } });
    }
  },
};
