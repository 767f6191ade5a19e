import { part } from '../../backends/data-platform.js';
import { BackingError } from '../../backends/http-pipeline.js';
import { gateOnAuth } from '../gates.js';
import type { Provisioner } from '../context.js';
import { ensurePlatformItem, platformPart, stableGuid } from './platform-item.js';

const SOURCE_KINDS: Record<string, string> = { 'kql-database': 'kql', eventhouse: 'kql', eventstream: 'eventstream', lakehouse: 'lakehouse', 'search-index': 'search' };

type Trigger = { name: string; condition: { column: string; operator: string; value: unknown }; action: { kind: string; receiver: string; message?: string } };

/** activator: POST /workspaces/{ws}/reflexes with ReflexEntities.json, then POST each trigger to /reflexes/{id}/triggers (SPEC.md). */
export const provisionActivator: Provisioner = async (ctx) => {
  const c = ctx.content as { source: string; table: string; triggers: Trigger[] };
  const source = ctx.app.items.find((i) => i.key === c.source)!;
  const sourceContent = ctx.contentOf(c.source);
  const entities = [
    {
      uniqueIdentifier: stableGuid(`${ctx.app.id}/${ctx.item.key}/source`),
      payload: { name: `${source.displayName} ${c.table}`, itemType: source.itemType, itemId: ctx.dependency(c.source)?.resourceId ?? null, database: sourceContent?.database ?? null, table: c.table },
      type: `${SOURCE_KINDS[source.itemType] ?? 'item'}Source-v1`,
    },
    ...c.triggers.map((t) => ({ uniqueIdentifier: stableGuid(`${ctx.app.id}/${ctx.item.key}/${t.name}`), payload: { name: t.name, condition: t.condition, action: t.action }, type: 'rule-v1' })),
  ];
  const definition = { format: 'json', parts: [part('ReflexEntities.json', JSON.stringify(entities, null, 2)), platformPart(ctx, 'Reflex')] };
  const { item, created } = await ensurePlatformItem(ctx, { type: 'Reflex', collection: 'reflexes', definition });
  const ws = ctx.target.platformWorkspaceId!;
  try {
    const existing = new Set((await ctx.backends.dataPlatform.listTriggers(ws, item.id)).map((t) => t.name.toLowerCase()));
    const triggerIds: Record<string, string> = {};
    for (const t of c.triggers) {
      if (existing.has(t.name.toLowerCase())) { ctx.log(`trigger '${t.name}' exists`); continue; }
      const made = await ctx.backends.dataPlatform.createTrigger(ws, item.id, { name: t.name, source: { itemType: source.itemType, itemId: ctx.dependency(c.source)?.resourceId ?? null, table: c.table, database: sourceContent?.database ?? null }, condition: t.condition, action: t.action })
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
    gateOnAuth(err, 'data-platform-auth', ctx.profile);
  }
};
