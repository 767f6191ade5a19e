import type { SandboxIds, IdSource } from '../ids.js';
import type { SwitchValues } from '../switches.js';
import type { KqlEngine } from '../kql/engine.js';
import { MonitorStore } from './monitor-store.js';
import { EventHubStore } from './eventhub-store.js';

export type ArmRole = 'Owner' | 'Contributor' | 'Reader' | 'Monitoring Contributor';

export interface ArmRoleAssignment {
  principalId: string;
  role: ArmRole;
  scope: string;
}

export interface ArmDatabase {
  name: string;
  kind: 'ReadWrite';
  location: string;
  softDeletePeriod?: string;
  hotCachePeriod?: string;
  createdAt: number;
  readyAt: number;
  deleting?: { at: number };
  operationId?: string;
}

export interface ArmOperation {
  id: string;
  name: string;
  kind: 'DatabaseCreate' | 'DatabaseDelete' | 'DataConnectionCreate' | 'DataConnectionDelete';
  startedAt: number;
  readyAt: number;
  apply?: () => void;
  applied?: boolean;
}

/** The resource manager's view of the KQL cluster: RBAC, databases and long-running operations. */
export class ArmStore {
  readonly roleAssignments: ArmRoleAssignment[] = [];
  readonly databases = new Map<string, ArmDatabase>();
  readonly operations = new Map<string, ArmOperation>();
  /** Microsoft.Insights: scheduled query rules and action groups in the alert resource group. */
  readonly monitor: MonitorStore;
  /** Microsoft.EventHub's namespace and the cluster's Event Hub data connections. */
  readonly eventHubs: EventHubStore;

  constructor(
    readonly ids: SandboxIds,
    readonly idSource: IdSource,
    readonly switches: SwitchValues,
    readonly kql: KqlEngine,
  ) {
    this.roleAssignments.push({ principalId: ids.serviceIdentity.objectId, role: 'Contributor', scope: ids.kqlClusterResourceId });
    this.roleAssignments.push({ principalId: ids.serviceIdentity.objectId, role: 'Contributor', scope: ids.eventHubNamespaceId });
    this.eventHubs = new EventHubStore(ids);
    this.roleAssignments.push({ principalId: ids.users[0]!.objectId, role: 'Owner', scope: `/subscriptions/${ids.subscriptionId}` });
    this.monitor = new MonitorStore(ids);
    this.roleAssignments.push({
      principalId: ids.serviceIdentity.objectId,
      role: 'Monitoring Contributor',
      scope: this.monitor.ids.resourceGroupId,
    });
  }

  /** Applies finished operations (lazily, when anything reads the state). */
  settle(now = Date.now()): void {
    for (const op of this.operations.values()) {
      if (!op.applied && now >= op.readyAt) {
        op.applied = true;
        op.apply?.();
      }
    }
  }

  startOperation(name: string, kind: ArmOperation['kind'], apply?: () => void): ArmOperation {
    const now = Date.now();
    const op: ArmOperation = {
      id: this.idSource.next('arm-operation'),
      name,
      kind,
      startedAt: now,
      readyAt: now + this.switches['arm.lroMs'],
      apply,
    };
    this.operations.set(op.id, op);
    return op;
  }

  /** The roles a principal holds at a scope (assignments at the scope or any parent scope). */
  rolesAt(principalId: string, scope: string): ArmRole[] {
    const s = scope.toLowerCase();
    return this.roleAssignments
      .filter((a) => a.principalId === principalId && (s === a.scope.toLowerCase() || s.startsWith(`${a.scope.toLowerCase()}/`)))
      .map((a) => a.role);
  }

  view() {
    this.settle();
    return {
      roleAssignments: this.roleAssignments.map((a) => ({ ...a })),
      databases: [...this.databases.values()].map((d) => ({
        name: d.name,
        location: d.location,
        provisioningState: Date.now() >= d.readyAt ? 'Succeeded' : 'Creating',
      })),
      monitor: this.monitor.view(),
      ...this.eventHubs.view(),
    };
  }
}
