import type { Static, TSchema } from '@sinclair/typebox';
import { boundItemKeys } from '../catalog/bindings.js';
import { EDGE_KINDS, type EdgeKind } from '../catalog/types.js';
import type { ProvisionContext, Provisioner, TypedProvisionContext } from '../provisioning/context.js';
import type { CuratedApp } from '../catalog/types.js';
import { activator } from './activator.js';
import { dashboard } from './dashboard.js';
import { dataAgent } from './data-agent.js';
import { dataPipeline } from './data-pipeline.js';
import { dataProduct } from './data-product.js';
import { dataflowSpec } from './dataflow-spec.js';
import { backendFor, chooseBackend, isLiveBackend, type AnyBackend } from './backends.js';
import type { CloudProfile } from '../cloud/profiles.js';
import type { BackendId, ItemTypeDescriptor, LiveBackend, LiveItemType } from './descriptor.js';
import { eventhouse } from './eventhouse.js';
import { eventstream } from './eventstream.js';
import { kqlDashboard } from './kql-dashboard.js';
import { kqlDatabase } from './kql-database.js';
import { kqlQueryset } from './kql-queryset.js';
import { lakehouse } from './lakehouse.js';
import { mirroredDatabase } from './mirrored-database.js';
import { notebook } from './notebook.js';
import { powerBiReport } from './power-bi-report.js';
import { promptFlow } from './prompt-flow.js';
import { report } from './report.js';
import { scorecard } from './scorecard.js';
import { searchIndex } from './search-index.js';
import { semanticModel } from './semantic-model.js';
import { warehouse } from './warehouse.js';

/**
 * Every item type, one module each: the eleven live types of SPEC.md, then the report, KQL dashboard and mirrored
 * database its catalog table provisions live, then the stored-only types. GET /api/item-types lists them in this order.
 */
export const ITEM_TYPES = [
  notebook,
  lakehouse,
  warehouse,
  kqlDatabase,
  kqlQueryset,
  eventhouse,
  searchIndex,
  semanticModel,
  activator,
  dataPipeline,
  eventstream,
  report,
  kqlDashboard,
  mirroredDatabase,
  dashboard,
  scorecard,
  dataProduct,
  promptFlow,
  dataflowSpec,
  powerBiReport,
  dataAgent,
] as const;

/** The id of an item type: a name that is not one of them does not compile. */
export type ItemTypeId = (typeof ITEM_TYPES)[number]['id'];

/** Any item type, its content erased (the catalog checked each item's content against its own type's schema). */
export type AnyItemType = ItemTypeDescriptor<ItemTypeId, TSchema, unknown>;
/** Any live item type, its content erased. */
export type AnyLiveItemType = LiveItemType<ItemTypeId, TSchema, unknown>;

const ALL: readonly AnyItemType[] = ITEM_TYPES;
const BY_ID = new Map<string, AnyItemType>(ALL.map((t) => [t.id, t]));
if (BY_ID.size !== ALL.length) throw new Error('two item types share an id');

/** Every item type id, in the registry's order. */
export const ITEM_TYPE_IDS: readonly ItemTypeId[] = ALL.map((t) => t.id);

/** True for the id of an item type. */
export function isItemTypeId(id: string): id is ItemTypeId {
  return BY_ID.has(id);
}

/** The item type with that id, or undefined for a name that is none. */
export function findItemType(id: string): AnyItemType | undefined {
  return BY_ID.get(id);
}

/** The item type of an id. */
export function itemTypeOf(id: ItemTypeId): AnyItemType {
  return BY_ID.get(id)!;
}

/** The live type of an id, or undefined for a stored-only type. */
export function liveItemType(id: ItemTypeId): AnyLiveItemType | undefined {
  const t = itemTypeOf(id);
  return t.provision ? t : undefined;
}

/** Whether an install provisions items of the type live in this cloud (not a stored-only type, nor one stored here for want of an API). */
export const isLive = (id: ItemTypeId, profile: CloudProfile, recorded?: string): boolean =>
  liveBackendOf(id, profile, recorded) !== undefined;

/** The backend an item of the type runs on in this cloud (see item-types/backends.ts); undefined for a stored-only type. */
export function backendOf(id: ItemTypeId, profile: CloudProfile, recorded?: string): AnyBackend | undefined {
  const type = liveItemType(id);
  return type ? backendFor(type, profile, recorded) : undefined;
}

/** The backend's id of a type in this cloud: 'stored' for a stored-only type. */
export function backendIdOf(id: ItemTypeId, profile: CloudProfile, recorded?: string): BackendId {
  return backendOf(id, profile, recorded)?.backing ?? 'stored';
}

/** The live backend of a type in this cloud, or undefined when its items are stored only here. */
export function liveBackendOf(id: ItemTypeId, profile: CloudProfile, recorded?: string): LiveBackend<unknown> | undefined {
  const b = backendOf(id, profile, recorded);
  return b && isLiveBackend(b) ? b : undefined;
}

/**
 * Why an item of a live type is stored only in this cloud: its type has no backend here (`stored`), or the backend
 * cannot hold this content (`unsupported`); undefined when it is provisioned live.
 */
export function storedReason(id: ItemTypeId, content: unknown, app: CuratedApp, profile: CloudProfile): string | undefined {
  const backend = backendOf(id, profile);
  if (!backend) return undefined;
  if (!isLiveBackend(backend)) return backend.reason;
  return backend.unsupported?.(content, app);
}

/** Whether an install provisions this item live in this cloud: a live type whose backend here can hold its content. */
export function provisionedLive(id: ItemTypeId, content: unknown, app: CuratedApp, profile: CloudProfile): boolean {
  return isLive(id, profile) && storedReason(id, content, app, profile) === undefined;
}

/** Each live type's backend in this cloud, by type id (what an install's report names). */
export function backendChoice(profile: CloudProfile): Partial<Record<ItemTypeId, BackendId>> {
  return Object.fromEntries(ALL.filter((t) => t.provision).map((t) => [t.id, chooseBackend(t as AnyLiveItemType, profile).backing]));
}

/** Keys of other items an item's provisioning needs first: those its type names and those its `${item:<key>.…}` bindings name. */
export function dependenciesOf(id: ItemTypeId, content: unknown, profile: CloudProfile, recorded?: string): string[] {
  const named = liveBackendOf(id, profile, recorded)?.dependsOn?.(content) ?? [];
  return [...new Set([...named.filter((k): k is string => Boolean(k)), ...boundItemKeys(content)])];
}

/** The context as a type's lifecycle operations get it: other items' content read by their type's schema. */
function typed(ctx: ProvisionContext): TypedProvisionContext<unknown> {
  return {
    ...ctx,
    contentOf: <S extends TSchema>(key: string, schema: S) => {
      const other = ctx.app.items.find((i) => i.key === key);
      if (!other) return undefined;
      if (itemTypeOf(other.itemType).content !== schema)
        throw new Error(`item '${key}' is a ${other.itemType}, whose content has another schema`);
      return ctx.contentOf(key) as Static<S>;
    },
  };
}

/** The provisioner of a live type as the runner calls it, with the item's content typed and other items' read by their schema. */
export function provisionerOf(id: ItemTypeId, profile: CloudProfile, recorded?: string): Provisioner | undefined {
  const backend = liveBackendOf(id, profile, recorded);
  if (!backend) return undefined;
  return (ctx: ProvisionContext) => backend.provision(typed(ctx));
}

/** What a plan asks of a live type: what provisioning would send, and the live resource as it is now. */
export function plannerOf(id: ItemTypeId, profile: CloudProfile, recorded?: string) {
  const backend = liveBackendOf(id, profile, recorded);
  if (!backend) return undefined;
  return {
    backing: backend.backing,
    calls: (content: unknown) => backend.calls(content),
    readCalls: (content: unknown) => backend.readCalls(content),
    desired: (ctx: ProvisionContext) => backend.desired(typed(ctx)),
    readLive: (ctx: ProvisionContext) => backend.readLive(typed(ctx)),
  };
}

/**
 * What an uninstall asks of a live type: `remove` deletes the live resource the item's step answered (removed:false when
 * it is already gone), `calls` are the deletes it makes for the plan text, `holdsData` marks the data stores an uninstall
 * keeps unless told to purge data.
 */
export function removerOf(id: ItemTypeId, profile: CloudProfile, recorded?: string) {
  const backend = liveBackendOf(id, profile, recorded);
  if (!backend) return undefined;
  return {
    backing: backend.backing,
    remove: (ctx: ProvisionContext, resourceId: string) => backend.remove(typed(ctx), resourceId),
    calls: (content: unknown) => backend.removeCalls(content),
    /** The live resource the item's own names lead to, if any: what a step that failed midway may have made. */
    find: async (ctx: ProvisionContext) => (backend.find ? backend.find(typed(ctx)) : (await backend.readLive(typed(ctx)))?.resourceId),
    findCalls: (content: unknown) => (backend.findCalls ? backend.findCalls(content) : backend.readCalls(content)),
    holdsData: backend.holdsData ?? false,
  };
}

/** Which item types each edge kind may join (from → to): the product of the kinds each type lets start and end at it. */
export function edgeRules(): Record<EdgeKind, { from: ItemTypeId[]; to: ItemTypeId[] }> {
  return Object.fromEntries(
    EDGE_KINDS.map((k) => [
      k,
      {
        from: ALL.filter((t) => t.edges.from.includes(k)).map((t) => t.id),
        to: ALL.filter((t) => t.edges.to.includes(k)).map((t) => t.id),
      },
    ]),
  ) as Record<EdgeKind, { from: ItemTypeId[]; to: ItemTypeId[] }>;
}

/**
 * The order the catalog validates items in: live types after the types their validation reads (registry order
 * otherwise), then the stored-only types, whose fields may name an item of any type.
 */
export function validationOrder(): AnyItemType[] {
  const order: AnyItemType[] = [];
  const visit = (t: AnyItemType, path: ItemTypeId[]) => {
    if (order.includes(t)) return;
    if (path.includes(t.id)) throw new Error(`item types validate after each other in a cycle: ${[...path, t.id].join(' -> ')}`);
    for (const before of t.validatesAfter ?? []) visit(itemTypeOf(before), [...path, t.id]);
    order.push(t);
  };
  for (const t of ALL.filter((x) => x.provision)) visit(t, []);
  return [...order, ...ALL.filter((t) => !t.provision)];
}
