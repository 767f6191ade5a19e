import { isIPv4 } from 'node:net';
import type { SandboxCore } from '../core.js';
import type { RequestContext } from '../http/context.js';
import type { Router } from '../http/router.js';
import { platformCaller, requireRole, workspaceOf } from './auth.js';
import { fabricError, invalidInput, invalidJson } from './errors.js';
import { page } from './paging.js';
import type { FirewallRule, Workspace } from './store.js';

/** Marks answers of paths SPEC.md names but the published data-platform API does not have. */
const EXTENSION = { 'x-sandbox-extension': 'non-fabric' };
const MAX_RULES = 256;

const ipNumber = (ip: string) => ip.split('.').reduce((n, o) => n * 256 + Number(o), 0);

async function open(core: SandboxCore, ctx: RequestContext, needed: 'Viewer' | 'Contributor' | 'Admin'): Promise<Workspace> {
  const caller = await platformCaller(core, ctx);
  const ws = workspaceOf(core, ctx.params.ws!);
  requireRole(ws, caller, needed);
  return ws;
}

function checkRange(start: unknown, end: unknown, field: string): void {
  if (typeof start !== 'string' || !isIPv4(start)) throw invalidInput(`${field}startIpAddress`, 'must be an IPv4 address');
  if (typeof end !== 'string' || !isIPv4(end)) throw invalidInput(`${field}endIpAddress`, 'must be an IPv4 address');
  if (ipNumber(start) > ipNumber(end)) throw invalidInput(`${field}endIpAddress`, 'must not be lower than startIpAddress');
}

/** The published form's `value`: an address, "start-end", or CIDR. */
function parseValue(value: unknown, i: number): { start: string; end: string } {
  if (typeof value !== 'string') throw invalidInput(`rules[${i}].value`, 'is required');
  const cidr = /^([\d.]+)\/(\d{1,2})$/.exec(value);
  if (cidr && isIPv4(cidr[1]!) && Number(cidr[2]) <= 32) {
    const bits = Number(cidr[2]);
    const base = ipNumber(cidr[1]!) & (bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0);
    const toIp = (n: number) => [24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.');
    return { start: toIp(base >>> 0), end: toIp((base + 2 ** (32 - bits) - 1) >>> 0) };
  }
  const [start, end = start] = value.split('-').map((s) => s.trim());
  checkRange(start, end, `rules[${i}].value `);
  return { start: start!, end: end! };
}

/**
 * SPEC.md's firewallRules (a marked extension) and the published inbound firewall (full-replace PUT with ETag). SPEC.md's
 * reflex triggers are not served: the reflex API has item and definition calls only, so that path answers 404 as the
 * real service does (rules travel in the definition's ReflexEntities.json).
 */
export function extensionRoutes(core: SandboxCore, router: Router): void {
  const fw = '/v1/workspaces/:ws/firewallRules';
  router.get(fw, async (ctx) => {
    const ws = await open(core, ctx, 'Admin');
    const body = page(
      ctx,
      ws.firewallRules.map((r) => ({ ...r })),
      core.switches['dataPlatform.pageSize'],
      `${core.urls.dataPlatform}/v1/workspaces/${ws.id}/firewallRules`,
      `${ws.id}|fw`,
    );
    return { status: 200, headers: EXTENSION, body };
  });
  router.post(fw, async (ctx) => {
    const ws = await open(core, ctx, 'Admin');
    const body = await ctx.json(invalidJson);
    if (typeof body?.name !== 'string' || !body.name.trim()) throw invalidInput('name', 'is required');
    checkRange(body.startIpAddress, body.endIpAddress, '');
    if (ws.firewallRules.some((r) => r.name.toLowerCase() === body.name.toLowerCase()))
      throw fabricError(409, 'FirewallRuleNameAlreadyExists', `A firewall rule named '${body.name}' already exists`);
    if (ws.firewallRules.length >= MAX_RULES)
      throw fabricError(400, 'FirewallRulesLimitExceeded', `A workspace holds at most ${MAX_RULES} firewall rules`);
    const rule: FirewallRule = {
      id: core.idSource.next('firewall-rule'),
      name: body.name,
      startIpAddress: body.startIpAddress,
      endIpAddress: body.endIpAddress,
    };
    ws.firewallRules.push(rule);
    ws.firewallVersion++;
    return {
      status: 201,
      headers: { ...EXTENSION, location: `${core.urls.dataPlatform}/v1/workspaces/${ws.id}/firewallRules/${rule.id}` },
      body: rule,
    };
  });
  router.delete(`${fw}/:ruleId`, async (ctx) => {
    const ws = await open(core, ctx, 'Admin');
    const i = ws.firewallRules.findIndex((r) => r.id === ctx.params.ruleId!.toLowerCase());
    if (i < 0) throw fabricError(404, 'FirewallRuleNotFound', 'The requested firewall rule was not found');
    ws.firewallRules.splice(i, 1);
    ws.firewallVersion++;
    return { status: 200, headers: EXTENSION };
  });

  const policy = '/v1/workspaces/:ws/networking/communicationPolicy/inbound/firewall';
  router.get(policy, async (ctx) => {
    const ws = await open(core, ctx, 'Admin');
    const rules = ws.firewallRules.map((r) => ({
      displayName: r.name,
      value: r.startIpAddress === r.endIpAddress ? r.startIpAddress : `${r.startIpAddress}-${r.endIpAddress}`,
    }));
    return { status: 200, headers: { etag: `"${ws.firewallVersion}"` }, body: { rules } };
  });
  router.put(policy, async (ctx) => {
    const ws = await open(core, ctx, 'Admin');
    const ifMatch = ctx.header('if-match');
    if (ifMatch && ifMatch !== '*' && ifMatch.replace(/^W\//, '') !== `"${ws.firewallVersion}"`) {
      throw fabricError(412, 'PreconditionFailed', 'The ETag in If-Match does not match the current firewall rules');
    }
    const body = await ctx.json(invalidJson);
    if (!Array.isArray(body?.rules)) throw invalidInput('rules', 'must be an array');
    if (body.rules.length > MAX_RULES) throw invalidInput('rules', `at most ${MAX_RULES} rules`);
    ws.firewallRules = body.rules.map((r: any, i: number) => {
      if (typeof r?.displayName !== 'string' || !r.displayName) throw invalidInput(`rules[${i}].displayName`, 'is required');
      const { start, end } = parseValue(r.value, i);
      return { id: core.idSource.next('firewall-rule'), name: r.displayName, startIpAddress: start, endIpAddress: end };
    });
    ws.firewallVersion++;
    return { status: 200, headers: { etag: `"${ws.firewallVersion}"` } };
  });
}
