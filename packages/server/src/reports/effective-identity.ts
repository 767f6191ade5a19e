import type { Caller } from '../auth/caller.js';
import type { BiDatasource } from '../backends/reporting.js';
import type { Definition } from '../backends/data-platform.js';
import type { CloudProfile } from '../cloud/profiles.js';
import { GateError } from '../errors.js';
import { gate } from '../provisioning/gates.js';

/** An EffectiveIdentity as the reporting service's ExportTo takes it (paginatedReportConfiguration.identities[0]). */
export interface EffectiveIdentity {
  username: string;
  roles?: string[];
  datasets?: string[];
}

/** What an admin may set on an export request instead of the caller's own identity. */
export interface IdentityOverride {
  username: string;
  roles?: string[];
}

// A Power BI semantic model's database in a data source (fabric-docs troubleshoot-cicd).
const MODEL_DATABASE = /^sobe_wowvirtualserver-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/**
 * What a report's data sources read: whether any is a semantic model or Analysis Services (the reporting service then
 * needs an effective identity from a service principal), and the semantic models (dataset ids) among them.
 */
export function modelsRead(datasources: BiDatasource[]): { readsModel: boolean; datasetIds: string[] } {
  const models = datasources.filter((d) => d.datasourceType?.toLowerCase() === 'analysisservices');
  const ids = models
    .map((d) => MODEL_DATABASE.exec(d.connectionDetails?.database ?? '')?.[1]?.toLowerCase())
    .filter((id): id is string => id !== undefined);
  return { readsModel: models.length > 0, datasetIds: [...new Set(ids)] };
}

/** The row-level security roles a semantic model's TMSL definition (model.bim) declares; none when it has no model.bim. */
export function rolesOf(definition: Definition): string[] {
  const part = definition.parts.find((p) => p.path.toLowerCase() === 'model.bim');
  if (!part) return [];
  try {
    const bim = JSON.parse(Buffer.from(part.payload, 'base64').toString('utf8'));
    const roles: unknown[] = Array.isArray(bim?.model?.roles) ? bim.model.roles : [];
    return roles.map((r) => (r as { name?: unknown })?.name).filter((n): n is string => typeof n === 'string' && n.length > 0);
  } catch {
    return []; // not JSON: the platform would not have stored it; nothing to read roles from
  }
}

/**
 * The username an export runs as: an admin's override, else the caller's user principal name (a signed-in user's, or a
 * token owner's when known), else SVC_REPORT_EFFECTIVE_USERNAME; with none of them a 424 gate naming the setting.
 */
export function effectiveUsername(
  caller: Caller,
  override: IdentityOverride | undefined,
  configured: string | undefined,
  profile: CloudProfile,
): string {
  const name = override?.username ?? caller.upn ?? configured;
  if (name) return name;
  throw new GateError(gate('report-effective-username', profile));
}
