import type { SandboxCore } from '../core.js';
import type { Caller } from '../identity/caller.js';
import { callerName } from './auth.js';
import type { StoredReport } from './store.js';

/** The embed URL's `config` parameter: base64 JSON naming the cluster, as the service does. */
function embedConfig(core: SandboxCore): string {
  return Buffer.from(JSON.stringify({ clusterUrl: core.urls.reporting, embedFeatures: { usePowerBIReportEmbed: true } })).toString(
    'base64',
  );
}

/** A Report as the group routes answer it: paginated reports carry format RDL, no dataset, rdlreports/rdlEmbed URLs. */
export function reportJson(core: SandboxCore, r: StoredReport, caller: Caller): Record<string, unknown> {
  const app = core.urls.reporting;
  const q = `reportId=${r.id}&groupId=${r.groupId}&config=${embedConfig(core)}`;
  const common = {
    id: r.id,
    reportType: r.reportType,
    name: r.name,
    description: r.description,
    isOwnedByMe: r.createdBy === callerName(caller),
  };
  if (r.reportType === 'PaginatedReport') {
    return {
      ...common,
      webUrl: `${app}/groups/${r.groupId}/rdlreports/${r.id}`,
      embedUrl: `${app}/rdlEmbed?${q}`,
      isFromPbix: false,
      format: 'RDL',
      users: [],
      subscriptions: [],
    };
  }
  return {
    ...common,
    webUrl: `${app}/groups/${r.groupId}/reports/${r.id}`,
    embedUrl: `${app}/reportEmbed?${q}`,
    isFromPbix: true,
    datasetId: r.datasetId,
    datasetWorkspaceId: r.groupId,
    users: [],
    subscriptions: [],
  };
}
