import { GateError } from '../errors.js';
import type { StepContext } from './context.js';
import { gate, type GateName } from './gates.js';

/**
 * The prefix of everything an install creates in a deployment's shared Azure-native services (a Synapse workspace, the
 * lake container, an Event Hubs namespace, an alert resource group): `w` and the first 12 hex digits of the tenant's
 * platform workspace id. Tenants are isolated by their platform workspaces, so two tenants' items of the same name land
 * under different prefixes, and a backend never lists, reads or deletes outside its own.
 */
export function nativePrefix(ctx: Pick<StepContext, 'target' | 'profile'>): string {
  const ws = ctx.target.platformWorkspaceId;
  if (!ws) throw new GateError(gate('no-platform-workspace', ctx.profile));
  return `w${ws.replace(/-/g, '').toLowerCase().slice(0, 12)}`;
}

/** A name under the tenant's prefix: `w<12 hex>_<name>` (`sep` for services whose names take no underscore). */
export function nativeName(ctx: Pick<StepContext, 'target' | 'profile'>, name: string, sep = '_'): string {
  return `${nativePrefix(ctx)}${sep}${name}`;
}

/** Whether a name found in a shared service is under the tenant's prefix (a listing keeps only those). */
export function ownNativeName(ctx: Pick<StepContext, 'target' | 'profile'>, found: string, sep = '_'): boolean {
  return found.startsWith(`${nativePrefix(ctx)}${sep}`);
}

/**
 * The gate of a missing Azure-native setting; a step without a platform workspace meets that gate first (every name it
 * would use is under the platform workspace), so that a plan and the install it plans name the same gate.
 */
export function nativeSettingGate(ctx: Pick<StepContext, 'target' | 'profile'>, name: GateName): GateError {
  nativePrefix(ctx);
  return new GateError(gate(name, ctx.profile));
}
