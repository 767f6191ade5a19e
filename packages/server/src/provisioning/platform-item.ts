import { createHash } from 'node:crypto';
import { BackingError } from '../backends/http-pipeline.js';
import { part, type Definition, type PlatformItem } from '../backends/data-platform.js';
import type { PlannedCall } from '../item-types/calls.js';
import { raiseGate } from '../backends/failures.js';
import { GateError } from '../errors.js';
import { gate } from './gates.js';
import type { StepContext } from './context.js';

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
  /** Send the definition with the create (required for semantic models and mirrored databases). */
  definitionAtCreate?: boolean;
}

export interface EnsureOptions extends PlatformKind {
  definition?: Definition;
  creationPayload?: Record<string, unknown>;
}

/** The long-running operation a 202 answer names, followed to its end and its result. */
export const OPERATION_CALLS: readonly PlannedCall[] = [
  { service: 'data-platform', method: 'GET', path: '/operations/{operation}', when: 'accepted' },
  { service: 'data-platform', method: 'GET', path: '/operations/{operation}/result', when: 'accepted' },
];

/**
 * The calls ensurePlatformItem makes for `kind`, with or without a definition, then the type's own `after` calls, the
 * long-running operations last.
 */
export function platformItemCalls(kind: PlatformKind, withDefinition: boolean, after: readonly PlannedCall[] = []): PlannedCall[] {
  const update: PlannedCall = { service: 'data-platform', method: 'POST', path: '/workspaces/{ws}/items/{id}/updateDefinition' };
  return [
    { service: 'data-platform', method: 'GET', path: `/workspaces/{ws}/items?type=${kind.type}` },
    { service: 'data-platform', method: 'POST', path: `/workspaces/{ws}/${kind.collection}`, when: 'new' },
    // A definition sent with the create is sent again only to an item that existed.
    ...(withDefinition ? [kind.definitionAtCreate ? { ...update, when: 'existing' as const } : update] : []),
    ...after,
    ...OPERATION_CALLS,
  ];
}

/**
 * Find-or-create by display name (SPEC.md idempotency): list every page of the type; found → update the
 * definition; otherwise create (then update the definition). A name race re-lists and updates; an item deleted between
 * its listing and its update is found or created again.
 */
export async function ensurePlatformItem(
  ctx: StepContext,
  o: EnsureOptions,
  retried = false,
): Promise<{ item: PlatformItem; created: boolean }> {
  const ws = platformWorkspace(ctx);
  const dp = ctx.backends.dataPlatform;
  try {
    let existing = await dp.findItem(ws, o.type, ctx.item.displayName);
    let created = false;
    if (!existing) {
      ctx.log(`create ${o.type} '${ctx.item.displayName}'`);
      try {
        existing = await dp.createItem(ws, o.collection, {
          displayName: ctx.item.displayName,
          description: ctx.item.description.slice(0, 256),
          ...(o.definitionAtCreate && o.definition ? { definition: o.definition } : {}),
          ...(o.creationPayload ? { creationPayload: o.creationPayload } : {}),
        });
        created = true;
      } catch (err) {
        if (!(err instanceof BackingError) || err.code !== 'ItemDisplayNameAlreadyInUse') throw err;
        ctx.log('the name was taken meanwhile: updating the existing item');
        // Another caller's create may still be running (a 202): the name is taken before the item is listed.
        const deadline = Date.now() + NAME_TAKEN_WAIT_MS;
        for (
          let wait = 500;
          !(existing = await dp.findItem(ws, o.type, ctx.item.displayName)) && Date.now() < deadline;
          wait = Math.min(wait * 2, 4000)
        ) {
          await new Promise((r) => setTimeout(r, wait));
        }
        if (!existing) throw err;
      }
    } else {
      ctx.log(`found ${o.type} '${existing.displayName}' (${existing.id}): updating in place`);
    }
    if (o.definition && (!created || !o.definitionAtCreate)) {
      ctx.log(`update definition (${o.definition.parts.map((p) => p.path).join(', ')})`);
      try {
        await dp.updateDefinition(ws, existing.id, o.definition);
      } catch (err) {
        // The item found was deleted before its update (an uninstall elsewhere, or by hand): find-or-create again, once.
        if (created || retried || !(err instanceof BackingError) || err.code !== 'ItemNotFound') throw err;
        ctx.log(`${o.type} ${existing.id} was deleted meanwhile: finding or creating it again`);
        return ensurePlatformItem(ctx, o, true);
      }
    }
    return { item: existing, created };
  } catch (err) {
    raiseGate(err, { profile: ctx.profile, gates: { auth: 'data-platform-auth' } });
  }
}
