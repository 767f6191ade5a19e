import type { Definition } from '../backends/data-platform.js';
import { raiseGate } from '../backends/failures.js';
import type { PlannedCall } from '../item-types/calls.js';
import type { LiveItemType, LiveParts, LiveState } from '../item-types/descriptor.js';
import type { StepContext, TypedProvisionContext } from './context.js';
import { definitionParts, listCall, OPERATION_CALLS, platformWorkspace, type PlatformKind } from './platform-item.js';
import { jobLists } from './job-lists.js';

/** The data-platform item of the step's display name (in the job's list of the type), or undefined; a 401/403 is the data platform's gate. */
export async function findPlatformItem(ctx: StepContext, type: string) {
  const ws = platformWorkspace(ctx);
  try {
    return { ws, item: await jobLists(ctx).find(ws, type, ctx.item.displayName) };
  } catch (err) {
    raiseGate(err, { profile: ctx.profile, gates: { auth: 'data-platform-auth' } });
  }
}

/** A data-platform item as it is now: found by display name (the list), then its definition (getDefinition, a read). */
export async function readPlatformItem(ctx: StepContext, kind: PlatformKind): Promise<LiveState | undefined> {
  const { ws, item } = await findPlatformItem(ctx, kind.type);
  if (!item) return undefined;
  try {
    const definition = await ctx.backends.dataPlatform.getDefinition(ws, item.id, kind.readFormat);
    return { resourceId: item.id, secondaryIds: { platformWorkspaceId: ws }, parts: definitionParts(definition) };
  } catch (err) {
    raiseGate(err, { profile: ctx.profile, gates: { auth: 'data-platform-auth' } });
  }
}

/** The reads readPlatformItem makes: the list of the type, and the definition of an item that exists. */
export function platformReadCalls(kind: PlatformKind, before: readonly PlannedCall[] = []): PlannedCall[] {
  return [
    ...before,
    listCall(kind.type),
    { service: 'data-platform', method: 'POST', path: '/workspaces/{ws}/items/{id}/getDefinition', when: 'existing' },
    ...OPERATION_CALLS,
  ];
}

/**
 * The plan's members of a data-platform type whose provisioner sends a definition: `definitionOf` is the one builder
 * of that definition, which provision sends and the plan compares with the item's definition read back.
 */
export function platformLifecycle<Id extends string, C>(
  kind: PlatformKind,
  definitionOf: (ctx: TypedProvisionContext<C>) => Definition | Promise<Definition>,
  readsBefore: readonly PlannedCall[] = [],
): Pick<LiveItemType<Id, never, C>, 'desired' | 'readLive' | 'readCalls'> {
  return {
    desired: async (ctx) => definitionParts(await definitionOf(ctx)),
    readLive: (ctx) => readPlatformItem(ctx, kind),
    readCalls: () => platformReadCalls(kind, readsBefore),
  };
}
