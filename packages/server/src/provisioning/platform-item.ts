import { createHash } from 'node:crypto';
import { BackingError } from '../backends/http-pipeline.js';
import { part, type Definition, type PlatformItem } from '../backends/data-platform.js';
import type { PlannedCall } from '../item-types/calls.js';
import { raiseGate } from '../backends/failures.js';
import { underSharedAccess } from '../backends/shared-access.js';
import { GateError } from '../errors.js';
import { gate } from './gates.js';
import type { StepContext } from './context.js';
import { jobLists } from './job-lists.js';
import { compareParts } from '../install/plan-compare.js';
import type { LiveParts } from '../item-types/descriptor.js';

/** A stable GUID from text (the .platform logicalId of an app's item). */
export function stableGuid(text: string): string {
  const h = createHash('sha256').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The `.platform` part every definition carries. */
export function platformPart(ctx: StepContext, type: string) {
  return part(
    '.platform',
    JSON.stringify(
      {
        $schema: 'https://developer.microsoft.com/json-schemas/fabric/gitIntegration/platformProperties/2.0.0/schema.json',
        metadata: { type, displayName: ctx.item.displayName, description: ctx.item.description },
        config: { version: '2.0', logicalId: stableGuid(`${ctx.app.id}/${ctx.item.key}`) },
      },
      null,
      2,
    ),
  );
}

/** The platform workspace the install targets, or the "no bound platform workspace" gate. */
export function platformWorkspace(ctx: StepContext): string {
  const ws = ctx.target.platformWorkspaceId;
  if (!ws) throw new GateError(gate('no-platform-workspace', ctx.profile));
  return ws;
}

/** How long a taken name may stay unlisted (another caller's create still running) before the conflict is reported. */
const NAME_TAKEN_WAIT_MS = 30_000;

/** A data-platform item type as the platform names it: its type and its typed collection. */
export interface PlatformKind {
  type: string;
  collection: string;
  /** The format getDefinition is asked for, when the platform's default is not the one provisioning sends (TMSL). */
  readFormat?: string;
}

export interface EnsureOptions extends PlatformKind {
  /** Sent with the create (every type provisioned here takes one there), and to an existing item only when it differs. */
  definition?: Definition;
  creationPayload?: Record<string, unknown>;
}

/** What ensurePlatformItem did: the item, whether it created it, and the definition it read when that already held the content. */
export interface EnsuredItem {
  item: PlatformItem;
  created: boolean;
  /** The live definition read and found the same as the one to send (so not updated). */
  unchanged?: Definition;
}

/** The long-running operation a 202 answer names, followed to its end and its result. */
export const OPERATION_CALLS: readonly PlannedCall[] = [
  { service: 'data-platform', method: 'GET', path: '/operations/{operation}', when: 'accepted' },
  { service: 'data-platform', method: 'GET', path: '/operations/{operation}/result', when: 'accepted' },
];

/** The list of a type, once per job for all its steps. */
export const listCall = (type: string): PlannedCall => ({
  service: 'data-platform',
  method: 'GET',
  path: `/workspaces/{ws}/items?type=${type}`,
  once: true,
});

/**
 * The calls ensurePlatformItem makes for `kind`, with or without a definition, then the type's own `after` calls, the
 * long-running operations last: the job's list of the type, the create (carrying the definition) of a new item, and for
 * an existing one the read of its definition and the update only when it differs.
 */
export function platformItemCalls(kind: PlatformKind, withDefinition: boolean, after: readonly PlannedCall[] = []): PlannedCall[] {
  return [
    listCall(kind.type),
    { service: 'data-platform', method: 'POST', path: `/workspaces/{ws}/${kind.collection}`, when: 'new' },
    ...(withDefinition
      ? ([
          { service: 'data-platform', method: 'POST', path: '/workspaces/{ws}/items/{id}/getDefinition', when: 'existing' },
          { service: 'data-platform', method: 'POST', path: '/workspaces/{ws}/items/{id}/updateDefinition', when: 'changed' },
        ] as const)
      : []),
    ...after,
    ...OPERATION_CALLS,
  ];
}

/**
 * A definition's parts as text, by path (the payloads decoded). `.platform` is left out: it is the item's metadata (its
 * name, description and logical id), which the platform writes itself, not content an install changes.
 */
export function definitionParts(definition: Definition): LiveParts {
  return Object.fromEntries(
    definition.parts.filter((p) => p.path !== '.platform').map((p) => [p.path, Buffer.from(p.payload, 'base64').toString('utf8')]),
  );
}

const partNames = (d: Definition) => d.parts.map((p) => p.path).join(', ');

/**
 * Find-or-create by display name (SPEC.md idempotency) in the job's list of the type: not found → create it with its
 * definition in the one call; found → update its definition only when it differs from what the platform holds (read
 * with getDefinition and compared as the plan compares), or at once when the caller has just compared them. A
 * name race lists again with backoff and treats the item as found; an item deleted between its listing and its read or
 * update is found or created again, once.
 */
export async function ensurePlatformItem(ctx: StepContext, o: EnsureOptions, retried = false): Promise<EnsuredItem> {
  const ws = platformWorkspace(ctx);
  const dp = ctx.backends.dataPlatform;
  const lists = jobLists(ctx);
  const name = ctx.item.displayName;
  try {
    let existing = await lists.find(ws, o.type, name);
    // Beside other installs of this resource (its lock shared), one of them has most likely made it since the job listed
    // the type: the type is listed again before a create, which shared access refuses (and the step would run again alone).
    if (!existing && underSharedAccess()) existing = await lists.find(ws, o.type, name, { fresh: true });
    if (!existing) {
      ctx.log(`create ${o.type} '${name}'${o.definition ? ` with its definition (${partNames(o.definition)})` : ''}`);
      try {
        const item = await dp.createItem(ws, o.collection, {
          displayName: name,
          description: ctx.item.description.slice(0, 256),
          ...(o.definition ? { definition: o.definition } : {}),
          ...(o.creationPayload ? { creationPayload: o.creationPayload } : {}),
        });
        await lists.add(ws, o.type, item);
        return { item, created: true };
      } catch (err) {
        if (!(err instanceof BackingError) || err.code !== 'ItemDisplayNameAlreadyInUse') throw err;
        ctx.log('the name was taken meanwhile: updating the existing item');
        // Another caller's create may still be running (a 202): the name is taken before the item is listed.
        const deadline = Date.now() + NAME_TAKEN_WAIT_MS;
        const found = () => lists.find(ws, o.type, name, { fresh: true });
        for (let wait = 500; !(existing = await found()) && Date.now() < deadline; wait = Math.min(wait * 2, 4000)) {
          await new Promise((r) => setTimeout(r, wait));
        }
        if (!existing) throw err;
      }
    } else {
      ctx.log(`found ${o.type} '${existing.displayName}' (${existing.id})`);
    }
    if (!o.definition) return { item: existing, created: false };
    try {
      const unchanged = await updateWhenChanged(ctx, ws, existing, o, o.definition);
      return { item: existing, created: false, ...(unchanged ? { unchanged } : {}) };
    } catch (err) {
      // The item found was deleted before its read or update (an uninstall elsewhere, or by hand): find or create it again, once.
      if (retried || !(err instanceof BackingError) || err.code !== 'ItemNotFound') throw err;
      ctx.log(`${o.type} ${existing.id} was deleted meanwhile: finding or creating it again`);
      await lists.relist(ws, o.type);
      return ensurePlatformItem(ctx, o, true);
    }
  } catch (err) {
    raiseGate(err, { profile: ctx.profile, gates: { auth: 'data-platform-auth' } });
  }
}

/**
 * Updates an existing item's definition when it differs from `definition` (getDefinition, compared part by part as the
 * plan compares them, `.platform` aside); answers the live definition when it was the same and nothing was sent. When
 * the caller has just compared them (an apply), it is written without reading it again.
 */
async function updateWhenChanged(
  ctx: StepContext,
  ws: string,
  item: PlatformItem,
  kind: PlatformKind,
  definition: Definition,
): Promise<Definition | undefined> {
  const dp = ctx.backends.dataPlatform;
  if (!ctx.liveDiffers) {
    const live = await dp.getDefinition(ws, item.id, kind.readFormat);
    const [held, wanted] = [definitionParts(live), definitionParts(definition)];
    const only = (parts: LiveParts, name: string): LiveParts => (name in parts ? { [name]: parts[name]! } : {});
    const differing = [...new Set([...Object.keys(wanted), ...Object.keys(held)])].filter((n) =>
      compareParts(only(held, n), only(wanted, n)),
    );
    if (!differing.length) {
      ctx.log('definition read (getDefinition): the same as the content, not updated');
      return live;
    }
    ctx.log(`definition read (getDefinition): ${differing.join(', ')} differ${differing.length === 1 ? 's' : ''}`);
  }
  ctx.log(`update definition (${partNames(definition)})`);
  await dp.updateDefinition(ws, item.id, definition);
  return undefined;
}
