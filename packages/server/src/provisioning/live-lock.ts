import { withObservedAccess, withSharedAccess } from '../backends/shared-access.js';
import type { NamedLocks } from '../store/named-locks.js';
import type { StepContext } from './context.js';
import type { ResolvedTarget } from './targets.js';

/**
 * Where an item type's names fall when that is not the platform workspace: the tenant's shared services, which every
 * workspace of the tenant reaches whatever platform workspace it is bound to. A KQL database (and an eventhouse's) is
 * named on the KQL cluster, a search index in the search service, a warehouse's schemas and tables in the dedicated
 * pool. Everything else is named in the platform workspace: its items, and the Azure-native names under its prefix
 * (provisioning/native-scope.ts).
 */
const SHARED_SERVICE_SCOPE: Partial<Record<string, (target: ResolvedTarget) => string>> = {
  'kql-database': (t) => `kql ${t.kqlClusterUri ?? ''}`,
  eventhouse: (t) => `kql ${t.kqlClusterUri ?? ''}`,
  'search-index': (t) => `search ${t.searchService ?? ''}`,
  warehouse: (t) => `sql ${t.warehouseServer ?? ''}/${t.warehouseDatabase ?? t.warehousePool ?? ''}`,
};

/**
 * The lock of one live resource by what names it: the tenant, where its name falls (the platform workspace, or the
 * shared service above), the item type and display name. Installs of one app into two workspaces of a tenant make and
 * share the same resources by name when their names fall in the same place (one platform workspace, or the tenant's
 * KQL cluster, search service or pool whatever platform workspace each is bound to); a step that provisions one and
 * records it, and a removal that checks for other users and deletes it, hold this lock, so neither runs in the middle of
 * the other.
 */
export function liveLockName(tenantId: string, ctx: Pick<StepContext, 'target' | 'item'>): string {
  const scope = SHARED_SERVICE_SCOPE[ctx.item.itemType]?.(ctx.target) ?? ctx.target.platformWorkspaceId ?? '';
  return `svc-live:${tenantId}:${scope}:${ctx.item.itemType}:${ctx.item.displayName.trim().toLowerCase()}`;
}

/** Runs fn under the live resource's lock. */
export const underLiveLock = <T>(locks: NamedLocks, tenantId: string, ctx: Pick<StepContext, 'target' | 'item'>, fn: () => Promise<T>) =>
  locks.run(liveLockName(tenantId, ctx), fn);

/** The last line of a step that ran beside other installs of its resource (and so sent only what shared access allows). */
export const RAN_BESIDE =
  'ran beside other installs of this resource (its lock shared): reads, and only writes that any number may make at once';

/** Since the start: install steps that finished beside other installs under the shared lock, and those run alone under the exclusive lock. */
const sharedCounts = { shared: 0, exclusive: 0 };
export const sharedStepCounts = () => ({ ...sharedCounts });

/**
 * What this process learned of each live resource's install steps, for the newest names, at most HINTS:
 * - `alone`: how many of its next install steps go alone at once, without an attempt beside the others. A step that
 *   wrote and then failed or stopped at a gate sets it to one. An attempt beside the others that was refused (the type
 *   writes on every install, or the resource differs) sets it to 1, 2, 4 … 32 as refusals follow one another, so a
 *   resource that is always written costs an attempt now and then, not at every install; an attempt that went through
 *   clears it. A step that found or made the resource leaves it as it was (less the one it used).
 * - `refusals`: the attempts beside the others refused in a row.
 * A resource this process has not met yet is provisioned alone when nobody holds its lock, and otherwise (another
 * process is making or checking it, so it is likely there) beside the others. While the first step of a resource not
 * met before runs alone, the steps of it that ask meanwhile are tried beside each other once it is done (it is likely
 * there by then).
 */
const hints = new Map<string, { alone: number; refusals: number }>();
/** Resources this process has not met before whose first install step is running alone now: the others wait beside. */
const firstRuns = new Set<string>();
const HINTS = 10_000;
/** The most installs of a resource that go alone after attempts beside the others were refused, before the next attempt. */
const MOST_ALONE = 32;
function remember(name: string, hint: { alone: number; refusals: number }) {
  hints.delete(name);
  hints.set(name, hint);
  if (hints.size > HINTS) hints.delete(hints.keys().next().value!);
}

/**
 * An install's step. When this process's last install step of the resource found or made it, or sent only what shared
 * access allows, the step runs under the lock's shared mode, beside other installs of the resource, where only calls
 * that read or that leave the same result however many run at once are sent (backends/shared-access.ts): an install
 * of a resource that is already there is done so. When it needs any other call (a create, a definition, a resource
 * manager PUT, a KQL command that writes, a T-SQL script), that call is refused before it is sent, the attempt is
 * dropped (its result unrecorded; what it found that the run alone does not say again is kept in the log) and the step
 * runs again, whole, alone under the exclusive lock, as every step did before. Otherwise (see `hints`) it runs alone
 * at once, and how it ended decides the next time. `keep` (recording the result) runs under the same hold as the run
 * it keeps. A removal takes the exclusive lock, so it never runs beside either.
 */
export async function provisionUnderLiveLock<T extends { steps: string[]; status: string }>(
  locks: NamedLocks,
  tenantId: string,
  ctx: Pick<StepContext, 'target' | 'item'>,
  make: () => Promise<T>,
  keep: (made: T) => Promise<void>,
): Promise<T> {
  const name = liveLockName(tenantId, ctx);
  let found: string[] = [];
  let refused: string | undefined;
  const alone = async () => {
    const made = await withObservedAccess(make).finally(() => firstRuns.delete(name));
    // A step that found the resource there ('exists') or made it ('created': it is there now) counts down the installs
    // that go alone; one that wrote and then failed or stopped at a gate goes alone next time.
    const was = hints.get(name) ?? { alone: 0, refusals: 0 };
    const failed = made.needed !== undefined && made.value.status !== 'exists' && made.value.status !== 'created';
    remember(name, { alone: failed ? Math.max(1, was.alone) : Math.max(0, was.alone - 1), refusals: was.refusals });
    // What a refused attempt found, and the run alone does not say again, stays in the step's log (a resource found,
    // then gone when its definition was read).
    const only = found.filter((line) => !made.value.steps.includes(line));
    const result = only.length
      ? {
          ...made.value,
          steps: [...only, `${refused}: not sent beside other installs of this resource; run again alone`, ...made.value.steps],
        }
      : made.value;
    await keep(result);
    return result;
  };
  const hint = hints.get(name);
  let beside = hint ? hint.alone === 0 : firstRuns.has(name);
  if (!hint && !beside) {
    // The first step of a resource this process has not met: alone if nobody holds it now. If someone does (another
    // process making or checking it), it is most likely there: the step goes beside the others.
    firstRuns.add(name);
    const now = await locks.tryRun(name, alone);
    if (now.ran) {
      sharedCounts.exclusive += 1;
      return now.value;
    }
    firstRuns.delete(name);
    beside = true;
  }
  if (beside) {
    const attempt = await locks.run(
      name,
      async () => {
        const tried = await withSharedAccess(make);
        if (tried.refused) return tried;
        const value = { ...tried.value, steps: [...tried.value.steps, RAN_BESIDE] };
        await keep(value);
        return { value };
      },
      'shared',
    );
    const refusals = attempt.refused ? (hints.get(name)?.refusals ?? 0) + 1 : 0;
    // The run alone that follows a refusal is the first of those it sets (it counts itself down).
    remember(name, { alone: refusals ? Math.min(MOST_ALONE, 2 ** (refusals - 1)) + 1 : 0, refusals });
    if (!attempt.refused) {
      sharedCounts.shared += 1;
      return attempt.value;
    }
    found = attempt.value.steps;
    refused = attempt.refused;
  }
  sharedCounts.exclusive += 1;
  return locks.run(name, alone);
}
