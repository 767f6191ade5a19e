import type { SandboxCore } from '../core.js';
import type { Caller } from '../identity/caller.js';
import { invalidRequest } from './errors.js';
import { datasourceType, type RdlModel } from './rdl.js';

/** A row-level security role of a semantic model (TMSL `model.roles[]`): its name and its table filters (DAX). */
export interface ModelRole {
  name: string;
  tablePermissions: Array<{ name: string; filterExpression?: string }>;
}

/** The identity a render runs as: `User!UserID`, and the roles whose filters apply to the models it reads. */
export interface RenderIdentity {
  userId: string;
  roles: string[];
}

const MODEL_ID = /sobe_wowvirtualserver-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/i;
const MAX_ROLES = 50;

/** The roles of a semantic model of the data platform (its model.bim); undefined when the sandbox holds no such model. */
export function modelRoles(core: SandboxCore, id: string): ModelRole[] | undefined {
  for (const ws of core.dataPlatform.workspaces.values()) {
    const item = ws.items.get(id.toLowerCase()) ?? ws.items.get(id);
    if (!item || item.type !== 'SemanticModel' || item.deletedAt) continue;
    const part = item.definition?.parts.find((p) => p.path.toLowerCase() === 'model.bim');
    if (!part) return [];
    try {
      const roles: unknown = JSON.parse(Buffer.from(part.payload, 'base64').toString('utf8'))?.model?.roles;
      return (Array.isArray(roles) ? roles : [])
        .filter((r) => typeof r?.name === 'string')
        .map((r) => ({
          name: r.name as string,
          tablePermissions: (Array.isArray(r.tablePermissions) ? r.tablePermissions : []).filter(
            (t: unknown) => typeof (t as { name?: unknown })?.name === 'string',
          ),
        }));
    } catch {
      return [];
    }
  }
  // A push dataset has no roles: the push API cannot declare them.
  return core.reporting.datasets.has(id.toLowerCase()) ? [] : undefined;
}

/** The semantic models (ids) an RDL's data sources read through the PBIDATASET / Analysis Services provider. */
function modelsOf(model: RdlModel | undefined): { reads: boolean; ids: string[] } {
  const sources = (model?.dataSources ?? []).filter((d) => datasourceType(d.provider) === 'AnalysisServices');
  const ids = sources.map((d) => MODEL_ID.exec(d.connectString)?.[1]?.toLowerCase()).filter((id): id is string => !!id);
  return { reads: sources.length > 0, ids: [...new Set(ids)] };
}

const strings = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === 'string');

/**
 * The effective identity of a render (one at most), checked as the reporting service checks it: a service principal
 * must send one for a report over a semantic model or Analysis Services; a model with row-level security needs roles,
 * each a role the model defines. Without an identity the render runs as the caller.
 */
export function identityOf(core: SandboxCore, body: any, model: RdlModel | undefined, caller: Caller): RenderIdentity {
  const ids = body?.paginatedReportConfiguration?.identities ?? body?.powerBIReportConfiguration?.identities;
  if (ids !== undefined && !Array.isArray(ids)) throw invalidRequest('identities must be an array holding one EffectiveIdentity.');
  if (ids && ids.length > 1)
    throw invalidRequest(`identities holds a single identity for a paginated report export; it has ${ids.length}.`);
  const id = ids?.[0];
  const read = modelsOf(model);
  if (id === undefined) {
    if (read.reads && caller.isApp)
      throw invalidRequest(
        'The report reads a Power BI semantic model or Analysis Services: a service principal must send paginatedReportConfiguration.identities with one EffectiveIdentity.',
      );
    return { userId: caller.upn ?? caller.appId ?? caller.objectId, roles: [] };
  }
  if (typeof id?.username !== 'string' || !id.username) throw invalidRequest('identities[0].username is required.');
  if (/\s/.test(id.username) || id.username.length > 256)
    throw invalidRequest('identities[0].username must have no spaces and at most 256 characters.');
  if (id.roles !== undefined && !strings(id.roles)) throw invalidRequest('identities[0].roles must be an array of strings.');
  if (id.datasets !== undefined && !strings(id.datasets)) throw invalidRequest('identities[0].datasets must be an array of strings.');
  const roles: string[] = id.roles ?? [];
  if (roles.length > MAX_ROLES) throw invalidRequest(`identities[0].roles holds at most ${MAX_ROLES} roles; it has ${roles.length}.`);
  const malformed = roles.find((r) => !r || r.length > 50 || r.includes(','));
  if (malformed !== undefined)
    throw invalidRequest(`identities[0].roles: '${malformed}' is not a role name (1 to 50 characters, no comma).`);
  for (const modelId of read.ids) {
    const defined = modelRoles(core, modelId);
    if (defined === undefined) continue; // a model the sandbox does not hold: nothing to check against
    if (defined.length && !roles.length)
      throw invalidRequest(
        `Semantic model ${modelId} has row-level security: the effective identity for '${id.username}' must include roles (one or more of ${defined.map((r) => `'${r.name}'`).join(', ')}).`,
      );
    const unknown = roles.find((r) => !defined.some((d) => d.name === r));
    if (unknown !== undefined)
      throw invalidRequest(
        defined.length
          ? `Role '${unknown}' is not defined in semantic model ${modelId}; its roles are ${defined.map((r) => `'${r.name}'`).join(', ')}.`
          : `Role '${unknown}' is not defined in semantic model ${modelId}; the model has no row-level security roles.`,
      );
  }
  return { userId: id.username, roles };
}

/** One `[Column] = value` term of a role's row filter; `user` stands for USERPRINCIPALNAME() / USERNAME(). */
export type FilterTerm = { column: string; value: string | boolean | { user: true } };

/**
 * The row filter the identity's roles put on a table of a model, as alternatives (a row shows when every term of one
 * alternative holds: several roles are a union). Undefined when nothing filters the table: the model has no roles, or
 * a granted role does not filter it. A filter the sandbox cannot read is an Error naming it.
 */
export function rowFilter(roles: ModelRole[], identity: RenderIdentity, table: string): FilterTerm[][] | undefined {
  if (!roles.length) return undefined;
  const alternatives: FilterTerm[][] = [];
  for (const name of identity.roles) {
    const role = roles.find((r) => r.name === name);
    const expression = role?.tablePermissions.find((t) => t.name.toLowerCase() === table.toLowerCase())?.filterExpression;
    if (!expression?.trim()) return undefined; // this role sees the whole table
    alternatives.push(
      expression.split('&&').map((term) => {
        const m =
          /^\s*(?:'(?:[^']|'')+'|\w+)?\[([^\]]+)\]\s*=\s*("(?:[^"]|"")*"|-?\d+(?:\.\d+)?|TRUE\(\)|FALSE\(\)|USERPRINCIPALNAME\(\)|USERNAME\(\))\s*$/i.exec(
            term,
          );
        if (!m)
          throw new Error(
            `role '${name}' filters '${table}' with '${expression}', which the sandbox does not evaluate (it reads [Column] = "text" | number | TRUE() | FALSE() | USERPRINCIPALNAME() joined by &&)`,
          );
        const v = m[2]!;
        const value = /^(USERPRINCIPALNAME|USERNAME)\(\)$/i.test(v)
          ? { user: true as const }
          : /^(TRUE|FALSE)\(\)$/i.test(v)
            ? /^TRUE/i.test(v)
            : v.startsWith('"')
              ? v.slice(1, -1).replace(/""/g, '"')
              : v;
        return { column: m[1]!, value };
      }),
    );
  }
  return alternatives;
}
