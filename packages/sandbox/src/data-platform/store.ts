import type { SandboxIds, IdSource } from '../ids.js';
import type { ServiceError } from '../http/errors.js';
import type { SwitchValues } from '../switches.js';
import type { Definition } from './definitions.js';
import { fabricError } from './errors.js';

export type WorkspaceRole = 'Admin' | 'Member' | 'Contributor' | 'Viewer';
export const ROLE_RANK: Record<WorkspaceRole, number> = { Viewer: 1, Contributor: 2, Member: 3, Admin: 4 };
export const PRINCIPAL_TYPES = ['User', 'Group', 'ServicePrincipal', 'ServicePrincipalProfile'] as const;

export interface RoleAssignment {
  id: string;
  principal: { id: string; type: (typeof PRINCIPAL_TYPES)[number] };
  role: WorkspaceRole;
}

export interface FirewallRule {
  id: string;
  name: string;
  startIpAddress: string;
  endIpAddress: string;
}

/** A cloud connection (GET /v1/connections): tenant-wide, named by display name, referenced by id. */
export interface Connection {
  id: string;
  displayName: string;
  connectivityType: 'ShareableCloud';
  connectionDetails: { type: string; path: string };
  privacyLevel: 'Organizational';
  credentialDetails: { credentialType: string; singleSignOnType: 'None'; connectionEncryption: 'Encrypted'; skipTestConnection: boolean };
}

export interface Item {
  id: string;
  workspaceId: string;
  type: string;
  displayName: string;
  description: string;
  definition?: Definition;
  logicalId: string;
  creationPayload?: Record<string, unknown>;
  createdAt: number;
  /** Hidden from lists and gets until then (a 202 create still running). */
  readyAt: number;
  /** Calls on the item answer EntityNotFound until then (post-create lag). */
  lagUntil: number;
  deletedAt?: number;
  sqlEndpointId?: string;
}

export interface Workspace {
  id: string;
  displayName: string;
  description: string;
  capacityId?: string;
  items: Map<string, Item>;
  roleAssignments: Map<string, RoleAssignment>;
  firewallRules: FirewallRule[];
  firewallVersion: number;
  /** Names held after a delete: key `${type}|${lowercase name}` → until (ms). */
  heldNames: Map<string, number>;
}

export interface Operation {
  id: string;
  ownerId: string;
  createdAt: number;
  readyAt: number;
  /** Applied once when the operation completes (an async updateDefinition). */
  apply?: () => void;
  applied?: boolean;
  result?: () => unknown;
  error?: ServiceError;
}

export type JobStatus = 'NotStarted' | 'InProgress' | 'Completed' | 'Failed' | 'Cancelled' | 'Deduped';

export interface JobInstance {
  id: string;
  workspaceId: string;
  itemId: string;
  jobType: string;
  createdAt: number;
  startAt: number;
  endAt: number;
  rootActivityId: string;
  cancelledAt?: number;
  failureReason?: { errorCode: string; message: string };
}

/** The data platform's quota buckets (Learn, "unified quota"): each identity has a budget per bucket. */
export type ThrottleBucket = 'platform' | 'lro' | 'jobs';
const BUCKET_BUDGET = {
  platform: 'dataPlatform.throttlePerMinute',
  lro: 'dataPlatform.throttleLroPerMinute',
  jobs: 'dataPlatform.throttleJobsPerMinute',
} as const satisfies Record<ThrottleBucket, keyof SwitchValues>;

const nameKey = (type: string, name: string) => `${type.toLowerCase()}|${name.toLowerCase()}`;

/** The data platform's state: workspaces with items, role assignments, firewall rules; operations and jobs. */
export class PlatformStore {
  readonly workspaces = new Map<string, Workspace>();
  readonly operations = new Map<string, Operation>();
  readonly jobs = new Map<string, JobInstance>();
  readonly connections = new Map<string, Connection>();
  private readonly calls = new Map<string, number[]>();

  constructor(
    readonly ids: SandboxIds,
    readonly idSource: IdSource,
    readonly switches: SwitchValues,
  ) {
    const ws = this.addWorkspace(
      ids.platformWorkspaceId,
      ids.platformWorkspaceName,
      'The data platform workspace the service provisions into',
      ids.capacityId,
    );
    // The grant a deployment documents (README): Admin, which identity operations need (firewall rules, granting roles);
    // provisioning alone needs Contributor. Tests reduce it with the admin API's grant/revoke.
    const mi = ids.serviceIdentity;
    ws.roleAssignments.set(mi.objectId, { id: mi.objectId, principal: { id: mi.objectId, type: 'ServicePrincipal' }, role: 'Admin' });
    const ada = ids.users[0]!;
    ws.roleAssignments.set(ada.objectId, { id: ada.objectId, principal: { id: ada.objectId, type: 'User' }, role: 'Admin' });
    for (const c of ids.connections) {
      this.connections.set(c.id, {
        id: c.id,
        displayName: c.displayName,
        connectivityType: 'ShareableCloud',
        connectionDetails: { type: 'SQL', path: `${c.server};${c.database}` },
        privacyLevel: 'Organizational',
        credentialDetails: {
          credentialType: 'ServicePrincipal',
          singleSignOnType: 'None',
          connectionEncryption: 'Encrypted',
          skipTestConnection: false,
        },
      });
    }
  }

  addWorkspace(id: string, displayName: string, description: string, capacityId?: string): Workspace {
    const ws: Workspace = {
      id,
      displayName,
      description,
      capacityId,
      items: new Map(),
      roleAssignments: new Map(),
      firewallRules: [],
      firewallVersion: 1,
      heldNames: new Map(),
    };
    this.workspaces.set(id, ws);
    return ws;
  }

  /**
   * The sandbox's KQL cluster is the eventhouse of the seeded platform workspace (SPEC.md: "an eventhouse is the KQL
   * cluster"): its Eventhouse item, and a KQLDatabase item per database on the cluster, listed as the platform lists an
   * eventhouse's databases (an eventstream's Eventhouse destination names one by item id).
   */
  clusterDatabase(name: string, readyAt: number, drop = false): void {
    const ws = this.workspaces.get(this.ids.platformWorkspaceId);
    if (!ws) return;
    const find = (type: string, n: string) =>
      [...ws.items.values()].find((i) => !i.deletedAt && i.type === type && i.displayName.toLowerCase() === n.toLowerCase());
    const existing = find('KQLDatabase', name);
    if (drop) {
      if (existing) ws.items.delete(existing.id);
      return;
    }
    if (existing) return;
    const house = find('Eventhouse', this.ids.kqlClusterName) ?? this.addItem(ws, 'Eventhouse', this.ids.kqlClusterName, 0);
    this.addItem(ws, 'KQLDatabase', name, readyAt, { databaseType: 'ReadWrite', parentEventhouseItemId: house.id });
  }

  private addItem(ws: Workspace, type: string, displayName: string, readyAt: number, creationPayload?: Record<string, unknown>): Item {
    const item: Item = {
      id: this.idSource.next('item'),
      workspaceId: ws.id,
      type,
      displayName,
      description: '',
      logicalId: this.idSource.next('logical'),
      creationPayload,
      createdAt: readyAt,
      readyAt,
      lagUntil: readyAt,
    };
    ws.items.set(item.id, item);
    return item;
  }

  /** Applies every operation whose time has come (state is evaluated lazily, never by timers). */
  settle(now = Date.now()): void {
    for (const op of this.operations.values()) {
      if (!op.applied && op.apply && !op.error && now >= op.readyAt) {
        op.applied = true;
        op.apply();
      }
    }
  }

  visible(item: Item, now = Date.now()): boolean {
    return !item.deletedAt && now >= item.readyAt;
  }

  /** Live (not deleted) items in creation order; pending creates only with `includePending`. */
  items(ws: Workspace, includePending = false): Item[] {
    const now = Date.now();
    return [...ws.items.values()].filter((i) => !i.deletedAt && (includePending || now >= i.readyAt));
  }

  /** The conflict error for a display name in (workspace, type), or undefined when free. */
  nameConflict(ws: Workspace, type: string, displayName: string, exceptId?: string): ServiceError | undefined {
    const taken = [...ws.items.values()].some(
      (i) => !i.deletedAt && i.id !== exceptId && i.type === type && i.displayName.toLowerCase() === displayName.toLowerCase(),
    );
    if (taken) return fabricError(409, 'ItemDisplayNameAlreadyInUse', `Requested '${displayName}' is already in use`);
    const until = ws.heldNames.get(nameKey(type, displayName));
    if (until && until > Date.now()) {
      return fabricError(
        409,
        'ItemDisplayNameNotAvailableYet',
        `Requested '${displayName}' is not available yet and is expected to become available in the upcoming minutes.`,
        { isRetriable: true },
        { 'retry-after': Math.ceil((until - Date.now()) / 1000) },
      );
    }
    return undefined;
  }

  /** Deletes an item (soft by default: hidden, still counted) and holds its name when configured. */
  deleteItem(ws: Workspace, item: Item, hard: boolean): void {
    if (hard) ws.items.delete(item.id);
    else item.deletedAt = Date.now();
    const hold = this.switches['dataPlatform.nameHoldMs'];
    if (hold > 0) ws.heldNames.set(nameKey(item.type, item.displayName), Date.now() + hold);
  }

  /**
   * Counts a call against the caller's per-minute budget of its quota bucket (the unified quota's Platform APIs, LRO
   * APIs and Job Scheduler buckets, each its own switch, one window: throttleWindowMs); returns the seconds to wait
   * when the bucket is spent.
   */
  throttle(callerId: string, bucket: ThrottleBucket = 'platform', now = Date.now()): number | undefined {
    const limit = this.switches[BUCKET_BUDGET[bucket]];
    if (!limit) return undefined;
    const windowMs = this.switches['dataPlatform.throttleWindowMs'];
    const key = `${bucket}|${callerId}`;
    const recent = (this.calls.get(key) ?? []).filter((t) => now - t < windowMs);
    if (recent.length >= limit) {
      this.calls.set(key, recent);
      return Math.max(1, Math.ceil((recent[0]! + windowMs - now) / 1000));
    }
    recent.push(now);
    this.calls.set(key, recent);
    return undefined;
  }

  /** Registers a long-running operation that completes after the configured duration. */
  startOperation(ownerId: string, fields: Partial<Operation> = {}): Operation {
    const now = Date.now();
    const op: Operation = {
      id: this.idSource.next('operation'),
      ownerId,
      createdAt: now,
      readyAt: now + this.switches['dataPlatform.lroMs'],
      ...fields,
    };
    this.operations.set(op.id, op);
    return op;
  }

  /** The job's status now (derived from its timeline). */
  jobStatus(job: JobInstance, now = Date.now()): JobStatus {
    if (job.cancelledAt !== undefined && job.cancelledAt < job.endAt) return 'Cancelled';
    if (now < job.startAt) return 'NotStarted';
    if (now < job.endAt) return 'InProgress';
    return job.failureReason ? 'Failed' : 'Completed';
  }

  /** What the admin state view shows. */
  view() {
    this.settle();
    return {
      connections: [...this.connections.values()].map((c) => ({ id: c.id, displayName: c.displayName, path: c.connectionDetails.path })),
      workspaces: [...this.workspaces.values()].map((ws) => ({
        id: ws.id,
        displayName: ws.displayName,
        items: this.items(ws, true).map((i) => ({
          id: i.id,
          type: i.type,
          displayName: i.displayName,
          definitionParts: i.definition?.parts.map((p) => p.path) ?? [],
        })),
        recycleBin: [...ws.items.values()].filter((i) => i.deletedAt).map((i) => ({ id: i.id, type: i.type, displayName: i.displayName })),
        roleAssignments: [...ws.roleAssignments.values()].map((r) => ({ ...r, principal: { ...r.principal } })),
        firewallRules: ws.firewallRules.map((r) => ({ ...r })),
      })),
    };
  }
}
