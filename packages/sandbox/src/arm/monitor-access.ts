import type { SandboxCore } from '../core.js';
import type { RequestContext } from '../http/context.js';
import { ServiceError } from '../http/errors.js';
import type { Caller } from '../identity/caller.js';
import { armCaller } from './auth.js';
import { armError } from './errors.js';

/** The api-versions the sandbox serves per type: the published descriptions' (specs/monitor-arm). */
export const RULE_VERSIONS = ['2023-12-01', '2026-03-01'] as const;
export const ACTION_GROUP_VERSIONS = ['2023-01-01'] as const;

/** A resource provider error of scheduled query rules: ErrorContract, `{error: {code, message}}`. */
export const ruleError = (status: number, code: string, message: string) => armError(status, code, message);

/** A resource provider error of action groups: their description's ErrorResponse, a bare `{code, message}`. */
export const groupError = (status: number, code: string, message: string) => new ServiceError(status, code, message, { flat: true });

/** Resource names: the resource manager refuses these characters, a trailing period or space, and over 260 characters. */
const NAME = /^[^*#&+:<>?@%{}\\/|"]{1,260}$/;

/**
 * Whether a role may perform an action: Owner and Contributor anything, Monitoring Contributor the Microsoft.Insights
 * writes and every read (its built-in definition: `Microsoft.Insights/scheduledqueryrules/*`,
 * `Microsoft.Insights/actiongroups/*`, `*\/read`), Reader reads.
 */
function allows(roles: string[], action: string): boolean {
  const a = action.toLowerCase();
  if (roles.includes('Owner') || roles.includes('Contributor')) return true;
  if (a.endsWith('/read') && (roles.includes('Reader') || roles.includes('Monitoring Contributor'))) return true;
  return (
    roles.includes('Monitoring Contributor') &&
    (a.startsWith('microsoft.insights/scheduledqueryrules/') || a.startsWith('microsoft.insights/actiongroups/'))
  );
}

/** 403 AuthorizationFailed, in the resource manager's words. */
export function authorizationFailed(caller: Caller, action: string, scope: string, code = 'AuthorizationFailed'): ServiceError {
  const who = caller.isApp ? caller.appId : (caller.upn ?? caller.objectId);
  return armError(
    403,
    code,
    `The client '${who}' with object id '${caller.objectId}' does not have authorization to perform action '${action}' over scope '${scope}' or the scope is invalid. If access was recently granted, please refresh your credentials.`,
  );
}

/** Whether the caller holds a role at the scope that allows the action. */
export function mayPerform(core: SandboxCore, caller: Caller, action: string, scope: string): boolean {
  return allows(core.arm.rolesAt(caller.objectId, scope), action);
}

/** One Microsoft.Insights request: authenticated, api-version checked, subscription, RBAC, resource group and name, in ARM's order. */
export async function monitorRequest(
  core: SandboxCore,
  ctx: RequestContext,
  type: 'scheduledQueryRules' | 'actionGroups',
  verb: 'read' | 'write' | 'delete',
): Promise<{ caller: Caller; rg: string; name?: string; apiVersion: string }> {
  const versions = type === 'scheduledQueryRules' ? RULE_VERSIONS : ACTION_GROUP_VERSIONS;
  const caller = await armCaller(core, ctx, type, versions);
  const { sub, rg, name } = ctx.params;
  if (sub!.toLowerCase() !== core.ids.subscriptionId)
    throw armError(404, 'SubscriptionNotFound', `The subscription '${sub}' could not be found.`);
  const rgScope = rg ? `/subscriptions/${sub}/resourceGroups/${rg}` : `/subscriptions/${sub}`;
  const scope = name ? `${rgScope}/providers/Microsoft.Insights/${type}/${name}` : rgScope;
  const action = `Microsoft.Insights/${type}/${verb}`;
  // A listing answers what the caller may read within it; only a single resource is refused outright.
  if (name && !mayPerform(core, caller, action, scope)) throw authorizationFailed(caller, action, scope);
  if (rg && !core.arm.monitor.resourceGroups().some((g) => g.toLowerCase() === rg.toLowerCase()))
    throw armError(404, 'ResourceGroupNotFound', `Resource group '${rg}' could not be found.`);
  if (name && (!NAME.test(name) || /[. ]$/.test(name))) {
    const make = type === 'actionGroups' ? groupError : ruleError;
    throw make(
      400,
      'InvalidResourceName',
      `The resource name '${name}' is invalid. It must be at most 260 characters, must not end with a period or space, and must not contain * # & + : < > ? @ % { } \\ / | or ".`,
    );
  }
  return { caller, rg: rg ?? '', ...(name ? { name } : {}), apiVersion: ctx.queryCi('api-version')! };
}

/** The name of a resource group as the store spells it. */
export function canonicalGroup(core: SandboxCore, rg: string): string {
  return core.arm.monitor.resourceGroups().find((g) => g.toLowerCase() === rg.toLowerCase()) ?? rg;
}

/** The system data the resource manager adds to a resource. */
export function systemData(createdBy: string, createdAt: string, updatedAt: string) {
  return {
    createdBy,
    createdByType: 'Application',
    createdAt,
    lastModifiedBy: createdBy,
    lastModifiedByType: 'Application',
    lastModifiedAt: updatedAt,
  };
}
