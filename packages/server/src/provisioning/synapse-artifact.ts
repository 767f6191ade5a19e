// What the Synapse backends share: the workspace and Spark pool of the target (or their gate), artifact names under the
// tenant's prefix, create-or-update that reports `exists` when the artifact already holds the content, and removal.
import { raiseGate } from '../backends/failures.js';
import { BackingError } from '../backends/http-pipeline.js';
import { SYNAPSE_API_VERSION, type SynapseArtifact, type SynapseCollection } from '../backends/synapse.js';
import type { PlannedCall } from '../item-types/calls.js';
import type { RemoveOutcome } from '../item-types/descriptor.js';
import type { StepContext } from './context.js';
import { nativeName, ownNativeName, nativeSettingGate } from './native-scope.js';

/** The Synapse workspace of the target (the warehouse's), or the gate naming its setting. */
export function synapseWorkspace(ctx: StepContext): string {
  const ws = ctx.target.warehouseWorkspace;
  if (!ws) throw nativeSettingGate(ctx, 'synapse-not-configured');
  return ws;
}

/** The Spark pool notebooks attach to, or the gate naming its setting. */
export function sparkPool(ctx: StepContext): string {
  const pool = ctx.target.sparkPool;
  if (!pool) throw nativeSettingGate(ctx, 'synapse-not-configured');
  return pool;
}

/**
 * An artifact's name: the display name under the tenant's prefix, with what a Synapse name may not hold (anything but
 * letters, digits, `_`, `-` and space; linked services and datasets also no `-` or space) turned into `_`.
 */
export function synapseName(ctx: StepContext, name: string, strict = false): string {
  const safe = name.replace(strict ? /[^A-Za-z0-9_]/g : /[^A-Za-z0-9_\- ]/g, '_');
  return nativeName(ctx, safe).slice(0, strict ? 260 : 140);
}

/** Runs Synapse calls; a 401/403 becomes the synapse-auth gate, anything else is thrown as it is. */
export async function onSynapse<T>(ctx: StepContext, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    raiseGate(err, { profile: ctx.profile, gates: { auth: 'synapse-auth' } });
  }
}

/** JSON with its object keys sorted: two artifacts' properties compared regardless of the order the service keeps. */
export function canonical(v: unknown): string {
  const sort = (x: unknown): unknown =>
    Array.isArray(x)
      ? x.map(sort)
      : x && typeof x === 'object'
        ? Object.fromEntries(
            Object.keys(x as object)
              .sort()
              .map((k) => [k, sort((x as Record<string, unknown>)[k])]),
          )
        : x;
  return JSON.stringify(sort(v), null, 2);
}

/**
 * Creates the artifact, or updates it in place when it holds something else (`same` compares what the service holds with
 * what would be sent); answers whether it was new. Names outside the tenant's prefix are refused before any call.
 */
export async function ensureArtifact(
  ctx: StepContext,
  kind: SynapseCollection,
  name: string,
  properties: Record<string, unknown>,
  same: (live: SynapseArtifact) => boolean = (live) => canonical(live.properties) === canonical(properties),
): Promise<{ created: boolean }> {
  const ws = synapseWorkspace(ctx);
  if (!ownNativeName(ctx, name)) throw new Error(`refused: ${kind} '${name}' is outside the tenant's prefix`);
  return onSynapse(ctx, async () => {
    const live = await ctx.backends.synapse.get(ws, kind, name);
    if (live && same(live)) {
      ctx.log(`${kind} '${name}' already holds the content`);
      return { created: false };
    }
    await ctx.backends.synapse.put(ws, kind, name, properties);
    ctx.log(`${live ? 'updated' : 'created'} ${kind} '${name}' in workspace ${ws}`);
    return { created: !live };
  });
}

/** The service's refusal to delete an artifact another one names (its text), or undefined for any other error. */
function referencedBy(err: unknown): string | undefined {
  if (!(err instanceof BackingError) || err.status !== 400) return undefined;
  const text = /cannot be deleted since it is referenced by [^"]*/.exec(err.body)?.[0];
  return text?.replace(/\.$/, '');
}

/**
 * Deletes an artifact of the tenant; removed:false when it was already gone. One that another artifact still names (a
 * dataset, pipeline or notebook of another install of the app into the same tenant prefix, made again while this one
 * was being removed) is kept for it, with the service's refusal as the reason: its own removal deletes it later.
 */
export async function removeArtifact(ctx: StepContext, kind: SynapseCollection, name: string): Promise<RemoveOutcome> {
  const ws = synapseWorkspace(ctx);
  if (!ownNativeName(ctx, name)) throw new Error(`refused: ${kind} '${name}' is outside the tenant's prefix`);
  return onSynapse(ctx, async () => {
    try {
      const removed = await ctx.backends.synapse.delete(ws, kind, name);
      ctx.log(removed ? `deleted ${kind} '${name}'` : `${kind} '${name}' was already gone`);
      return { removed };
    } catch (err) {
      const why = referencedBy(err);
      if (!why) throw err;
      ctx.log(`kept ${kind} '${name}': the service answered that it ${why}`);
      return { removed: false, keptFor: `the service answered that it ${why}` };
    }
  });
}

const V = `?api-version=${SYNAPSE_API_VERSION}`;
/** Where a notebook's operation is followed, and where every other artifact's is. */
const OPERATION = (kind: SynapseCollection): PlannedCall => ({
  service: 'synapse',
  method: 'GET',
  path: kind === 'notebooks' ? `/notebookOperationResults/{operation}${V}` : `/operationResults/{operation}${V}`,
  when: 'accepted',
});

/** The calls of ensureArtifact: the read, then the long-running PUT and its operation. */
export function ensureCalls(kind: SynapseCollection, times?: number): PlannedCall[] {
  const t = times === undefined ? {} : { times };
  return [
    { service: 'synapse', method: 'GET', path: `/${kind}/{name}${V}`, ...t },
    { service: 'synapse', method: 'PUT', path: `/${kind}/{name}${V}`, when: 'changed', ...t },
    OPERATION(kind),
  ];
}

/** The read of one artifact (plan and drift). */
export const readCall = (kind: SynapseCollection, times?: number): PlannedCall => ({
  service: 'synapse',
  method: 'GET',
  path: `/${kind}/{name}${V}`,
  ...(times === undefined ? {} : { times }),
});

/** The calls of removeArtifact: the long-running DELETE and its operation. */
export const removeCalls = (kind: SynapseCollection, times?: number): PlannedCall[] => [
  { service: 'synapse', method: 'DELETE', path: `/${kind}/{name}${V}`, ...(times === undefined ? {} : { times }) },
  OPERATION(kind),
];
