import type { SandboxIds } from '../ids.js';

/**
 * Where the sandbox's Azure Monitor resources live: a resource group for alert rules and action groups, and the Log
 * Analytics workspace the rules are scoped to. A log search alert over an Azure Data Explorer table is scoped to a Log
 * Analytics workspace and reads the table with an `adx()` cross-service query ("Create an alert based on a
 * cross-service query from your Log Analytics workspace ... selecting your Log Analytics workspace, on the Scope tab",
 * learn.microsoft.com/azure/azure-monitor/logs/azure-monitor-data-explorer-proxy), so the workspace is the seeded scope.
 */
export interface MonitorIds {
  resourceGroup: string;
  resourceGroupId: string;
  workspaceName: string;
  /** The Log Analytics workspace's resource manager id (SVC_ALERT_SCOPE). */
  workspaceId: string;
  location: string;
}

/** The seeded Monitor ids of a sandbox. */
export function monitorIds(ids: SandboxIds): MonitorIds {
  const resourceGroup = 'rg-analytics-alerts';
  const resourceGroupId = `/subscriptions/${ids.subscriptionId}/resourceGroups/${resourceGroup}`;
  const workspaceName = 'sandbox-alert-logs';
  return {
    resourceGroup,
    resourceGroupId,
    workspaceName,
    workspaceId: `${resourceGroupId}/providers/Microsoft.OperationalInsights/workspaces/${workspaceName}`,
    location: ids.kqlLocation,
  };
}

/** A stored resource of the Microsoft.Insights provider: what its PUT sent, as kept, and when. */
export interface MonitorResource {
  resourceGroup: string;
  name: string;
  location: string;
  tags?: Record<string, string>;
  kind?: string;
  identity?: Record<string, unknown>;
  properties: Record<string, any>;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  etag: string;
}

/** Scheduled query rules and action groups, by resource group and name (case-insensitive, as the resource manager). */
export class MonitorStore {
  readonly ids: MonitorIds;
  readonly rules = new Map<string, MonitorResource>();
  readonly actionGroups = new Map<string, MonitorResource>();

  constructor(readonly sandboxIds: SandboxIds) {
    this.ids = monitorIds(sandboxIds);
  }

  static key(resourceGroup: string, name: string): string {
    return `${resourceGroup}/${name}`.toLowerCase();
  }

  /** The resource groups of the subscription (the cluster's and the alert group). */
  resourceGroups(): string[] {
    return [this.sandboxIds.resourceGroup, this.ids.resourceGroup];
  }

  /** The resources a rule may be scoped to: the Log Analytics workspace and the KQL cluster. */
  scopeResources(): string[] {
    return [this.ids.workspaceId, this.sandboxIds.kqlClusterResourceId];
  }

  /** The resource manager id of a stored resource. */
  idOf(type: 'scheduledQueryRules' | 'actionGroups', r: MonitorResource): string {
    return `/subscriptions/${this.sandboxIds.subscriptionId}/resourceGroups/${r.resourceGroup}/providers/Microsoft.Insights/${type}/${r.name}`;
  }

  view() {
    const brief = (type: 'scheduledQueryRules' | 'actionGroups') => (r: MonitorResource) => ({
      id: this.idOf(type, r),
      name: r.name,
      properties: structuredClone(r.properties),
    });
    return {
      scheduledQueryRules: [...this.rules.values()].map(brief('scheduledQueryRules')),
      actionGroups: [...this.actionGroups.values()].map(brief('actionGroups')),
    };
  }
}
