import { Type, type Static } from '@sinclair/typebox';
import { part, type Definition } from '../backends/data-platform.js';
import { validateActivator } from '../catalog/validate-consumers.js';
import { raiseGate } from '../backends/failures.js';
import type { TypedProvisionContext } from '../provisioning/context.js';
import { ensurePlatformItem, platformItemCalls, platformPart, stableGuid, type PlatformKind } from '../provisioning/platform-item.js';
import { platformLifecycle } from '../provisioning/platform-read.js';
import { Key, Name } from './content-parts.js';
import type { LiveItemType } from './descriptor.js';
import type { ItemTypeId } from './index.js';
import { KqlDatabaseContent } from './kql-database.js';
import { PLATFORM_REMOVAL } from '../provisioning/remove.js';
import { activatorMonitor } from './activator-monitor.js';

/** The comparison operators of an activator condition. */
export const ACTIVATOR_OPERATORS = ['>', '<', '==', '!=', '>=', '<='] as const;
/** Activator content: the watched table and its triggers. */
export const ActivatorContent = Type.Object({
  source: Key,
  table: Name,
  triggers: Type.Array(
    Type.Object({
      name: Name,
      condition: Type.Object({
        column: Name,
        operator: Type.Union(ACTIVATOR_OPERATORS.map((o) => Type.Literal(o))),
        value: Type.Union([Type.String(), Type.Number(), Type.Boolean()]),
      }),
      action: Type.Object({
        kind: Type.Union([Type.Literal('email'), Type.Literal('teams')]),
        receiver: Name,
        /** The receiver's email address (a Teams channel's own address): what an Azure Monitor action group notifies. */
        address: Type.Optional(Type.String({ pattern: '^[^@\\s/]+@[^@\\s/]+\\.[^@\\s/]+$' })),
        message: Type.Optional(Type.String()),
      }),
    }),
    { minItems: 1 },
  ),
});
export type ActivatorContent = Static<typeof ActivatorContent>;

// The reflex API has item and definition calls only: the rules travel in ReflexEntities.json (DESIGN.md, "Where SPEC.md
// and the real backing services differ"), sent with the create (or updateDefinition when they differ) and read back to confirm them.
const PLATFORM: PlatformKind = { type: 'Reflex', collection: 'reflexes' };
const SOURCE_KINDS: Partial<Record<ItemTypeId, string>> = {
  'kql-database': 'kql',
  eventhouse: 'kql',
  eventstream: 'eventstream',
  lakehouse: 'lakehouse',
  'search-index': 'search',
};
const ENTITIES = 'ReflexEntities.json';

interface Entity {
  uniqueIdentifier: string;
  payload: Record<string, unknown>;
  type: string;
}

/** The reflex's entities: the watched source, then one rule per trigger of the content. */
function entitiesOf(ctx: TypedProvisionContext<ActivatorContent>): Entity[] {
  const c = ctx.content;
  const source = ctx.app.items.find((i) => i.key === c.source)!;
  const database =
    source.itemType === 'kql-database' || source.itemType === 'eventhouse'
      ? (ctx.contentOf(c.source, KqlDatabaseContent)?.database ?? null)
      : null;
  return [
    {
      uniqueIdentifier: stableGuid(`${ctx.app.id}/${ctx.item.key}/source`),
      payload: {
        name: `${source.displayName} ${c.table}`,
        itemType: source.itemType,
        itemId: ctx.dependency(c.source)?.resourceId ?? null,
        database,
        table: c.table,
      },
      type: `${SOURCE_KINDS[source.itemType] ?? 'item'}Source-v1`,
    },
    ...c.triggers.map((t) => ({
      uniqueIdentifier: stableGuid(`${ctx.app.id}/${ctx.item.key}/${t.name}`),
      payload: { name: t.name, condition: t.condition, action: t.action },
      type: 'rule-v1',
    })),
  ];
}

/** The definition an activator's provisioning sends: its entities in ReflexEntities.json and the .platform part. */
function definitionOf(ctx: TypedProvisionContext<ActivatorContent>, entities = entitiesOf(ctx)): Definition {
  return { format: 'json', parts: [part(ENTITIES, JSON.stringify(entities, null, 2)), platformPart(ctx, 'Reflex')] };
}

/** The rules of `wanted` the read-back definition does not hold (by identifier, name and type). */
export function missingRules(wanted: Entity[], definition: Definition): string[] {
  const found = definition.parts.find((p) => p.path === ENTITIES);
  let stored: unknown = [];
  try {
    stored = found ? JSON.parse(Buffer.from(found.payload, 'base64').toString('utf8')) : [];
  } catch {
    stored = [];
  }
  const have = new Set(
    (Array.isArray(stored) ? stored : []).map((e: Partial<Entity>) => `${e?.uniqueIdentifier}|${e?.type}|${String(e?.payload?.name)}`),
  );
  return wanted
    .filter((e) => e.type === 'rule-v1' && !have.has(`${e.uniqueIdentifier}|${e.type}|${String(e.payload.name)}`))
    .map((e) => String(e.payload.name));
}

/** activator: POST /workspaces/{ws}/reflexes with its rules in ReflexEntities.json (or updateDefinition when they differ), confirmed by getDefinition. */
export const activator: LiveItemType<'activator', typeof ActivatorContent> = {
  id: 'activator',
  displayName: 'Activator',
  description: 'rules that watch a table and notify a receiver',
  icon: 'Alert',
  editor: 'json',
  backing: 'data-platform',
  ...PLATFORM_REMOVAL,
  content: ActivatorContent,
  validate: validateActivator,
  validatesAfter: ['kql-database', 'eventhouse', 'eventstream', 'lakehouse', 'search-index'],
  edges: { from: ['triggers-on'], to: [] },
  // Without the data platform: scheduled query rules with an action group on Azure Monitor.
  alternatives: [activatorMonitor],
  dependsOn: (c) => [c.source],
  // A new or updated reflex is read back to confirm its rules; an existing one's read (to compare) confirms them already.
  calls: () =>
    platformItemCalls(PLATFORM, true, [
      { service: 'data-platform', method: 'POST', path: '/workspaces/{ws}/items/{id}/getDefinition', when: 'new' },
    ]),
  ...platformLifecycle(PLATFORM, (ctx: TypedProvisionContext<ActivatorContent>) => definitionOf(ctx)),
  async provision(ctx) {
    const entities = entitiesOf(ctx);
    const { item, created, unchanged } = await ensurePlatformItem(ctx, { ...PLATFORM, definition: definitionOf(ctx, entities) });
    const ws = ctx.target.platformWorkspaceId!;
    const rules = entities.filter((e) => e.type === 'rule-v1');
    const secondaryIds = { platformWorkspaceId: ws, ...Object.fromEntries(rules.map((e) => [String(e.payload.name), e.uniqueIdentifier])) };
    let readBack: Definition;
    try {
      readBack = unchanged ?? (await ctx.backends.dataPlatform.getDefinition(ws, item.id));
    } catch (err) {
      raiseGate(err, { profile: ctx.profile, gates: { auth: 'data-platform-auth' } });
    }
    const missing = missingRules(entities, readBack);
    if (missing.length) {
      ctx.log(`definition read back: ${ENTITIES} lacks ${missing.length} of ${rules.length} rules (${missing.join(', ')})`);
      return {
        status: 'failed',
        resourceId: item.id,
        secondaryIds,
        code: 'rules_not_confirmed',
        message: `The reflex was ${created ? 'created' : 'updated'}, but its definition read back (getDefinition) does not hold the rule(s) ${missing.map((m) => `'${m}'`).join(', ')} sent in ${ENTITIES}`,
      };
    }
    ctx.log(`definition read back: ${ENTITIES} holds the ${rules.length} rule(s) (${rules.map((e) => e.payload.name).join(', ')})`);
    return { status: created ? 'created' : 'exists', resourceId: item.id, secondaryIds };
  },
};
