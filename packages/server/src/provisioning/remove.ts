import { ARM_API_VERSION } from '../backends/kql.js';
import { raiseGate } from '../backends/failures.js';
import type { PlannedCall } from '../item-types/calls.js';
import type { RemoveOutcome } from '../item-types/descriptor.js';
import type { StepContext } from './context.js';
import { cluster, ident } from './kql.js';
import { mgmt } from './kql-script.js';
import { readDatabase } from './kql-read.js';
import { platformWorkspace } from './platform-item.js';

// The deletes of live resources (issue 19's uninstall and a single item's deleteLive), shared by the types of one backing
// service. Each answers removed:false for a resource already gone and never fails for that.

/** The data platform's delete of an item by id (200; soft delete into the recycle bin, as the platform defaults to). */
export const PLATFORM_REMOVE_CALLS: readonly PlannedCall[] = [
  { service: 'data-platform', method: 'DELETE', path: '/workspaces/{ws}/items/{id}' },
];

/** Deletes the data-platform item `resourceId` of the step's platform workspace; its definition goes with it. */
export async function removePlatformItem(ctx: StepContext, resourceId: string): Promise<RemoveOutcome> {
  const ws = platformWorkspace(ctx);
  try {
    const removed = await ctx.backends.dataPlatform.deleteItem(ws, resourceId);
    ctx.log(removed ? `deleted item ${resourceId}` : `item ${resourceId} was already gone (ItemNotFound)`);
    return { removed };
  } catch (err) {
    raiseGate(err, { profile: ctx.profile, gates: { auth: 'data-platform-auth' } });
  }
}

/** The `remove` members of a data-platform type: the item's delete by id. */
export const PLATFORM_REMOVAL = { remove: removePlatformItem, removeCalls: () => PLATFORM_REMOVE_CALLS };

const MGMT = '/v1/rest/mgmt';

/**
 * A KQL database's delete as the shared target makes it: the resource manager's DELETE, and its operation while a 202
 * runs. (On an operator's database of a dedicated target the content's tables are dropped instead, as kqlDropCalls says.)
 */
export const KQL_DATABASE_REMOVE_CALLS: readonly PlannedCall[] = [
  {
    service: 'arm',
    method: 'DELETE',
    path: `/subscriptions/{subscription}/resourceGroups/{group}/providers/Microsoft.Kusto/clusters/{cluster}/databases/{database}?api-version=${ARM_API_VERSION}`,
  },
  {
    service: 'arm',
    method: 'GET',
    path: '/subscriptions/{subscription}/providers/Microsoft.Kusto/locations/{location}/operationResults/{operation}',
    when: 'accepted',
  },
];

/**
 * Deletes a KQL database (kql-database, eventhouse). The install created it with the resource manager's PUT, so the
 * resource manager's DELETE removes it with its tables and functions; a database the operator named in the dedicated
 * target (targetOverrides.kqlDatabase) is theirs, not the app's: only the content's tables are dropped from it.
 */
export async function removeKqlDatabase(
  ctx: StepContext,
  database: string,
  tables: readonly { name: string }[],
  functions: readonly { name: string }[],
): Promise<RemoveOutcome> {
  if (ctx.target.kqlDatabase) return dropKqlObjects(ctx, ctx.target.kqlDatabase, tables, functions);
  const { resourceId } = cluster(ctx);
  try {
    const removed = await ctx.backends.kql.deleteDatabase(resourceId, database);
    ctx.log(removed ? `database ${database} deleted (resource manager DELETE)` : `database ${database} was already gone (204)`);
    return { removed };
  } catch (err) {
    raiseGate(err, { profile: ctx.profile, gates: { auth: 'kql-arm-auth' } });
  }
}

/**
 * Drops the named tables and functions of a database that stays (an operator's database, a queryset's parent): those
 * `.show` lists are dropped, each by name; removed:false when none of them (or not the database) exists any more.
 */
export async function dropKqlObjects(
  ctx: StepContext,
  database: string,
  tables: readonly { name: string }[],
  functions: readonly { name: string }[],
): Promise<RemoveOutcome> {
  if (!ctx.target.kqlDatabase && !(await readDatabase(ctx, database))) {
    ctx.log(`database ${database} does not exist: nothing to drop`);
    return { removed: false };
  }
  const { uri } = cluster(ctx);
  let removed = false;
  const drop = async (kind: 'table' | 'function', names: readonly { name: string }[]) => {
    if (!names.length) return;
    const present = new Set((await mgmt(ctx, uri, database, `.show ${kind}s`)).map((r) => String(r[0])));
    for (const { name } of names.filter((n) => present.has(n.name))) {
      await mgmt(ctx, uri, database, `.drop ${kind} ${ident(name)} ifexists`);
      ctx.log(`.drop ${kind} ${name}`);
      removed = true;
    }
  };
  await drop('function', functions);
  await drop('table', tables);
  return { removed };
}

/** The calls dropKqlObjects makes: the database read, then per kind its `.show` and one `.drop` for each that exists. */
export function kqlDropCalls(tables: number, functions: number, readDatabaseFirst: boolean): PlannedCall[] {
  const kind = (name: 'table' | 'function', n: number): PlannedCall[] =>
    n
      ? [
          { service: 'kql', method: 'POST', path: MGMT, command: `.show ${name}s`, when: 'existing' },
          { service: 'kql', method: 'POST', path: MGMT, command: `.drop ${name} … ifexists`, times: n, when: 'existing' },
        ]
      : [];
  return [
    ...(readDatabaseFirst
      ? [
          {
            service: 'arm',
            method: 'GET',
            path: `/subscriptions/{subscription}/resourceGroups/{group}/providers/Microsoft.Kusto/clusters/{cluster}/databases/{database}?api-version=${ARM_API_VERSION}`,
          } as const,
        ]
      : []),
    ...kind('function', functions),
    ...kind('table', tables),
  ];
}
