import type { IdSource, SandboxIds } from '../ids.js';

/** The artifact collections of a workspace's development endpoint, by their path segment. */
export const ARTIFACT_KINDS = ['notebooks', 'pipelines', 'linkedservices', 'datasets'] as const;
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];

/** The Synapse RBAC roles the sandbox knows (Learn, "Synapse RBAC roles"), and what each may do with artifacts. */
export const SYNAPSE_ROLES = {
  'Synapse Administrator': { read: true, write: true },
  'Synapse Contributor': { read: true, write: true },
  'Synapse Artifact Publisher': { read: true, write: true },
  'Synapse Artifact User': { read: true, write: false },
} as const;
export type SynapseRole = keyof typeof SYNAPSE_ROLES;

/** One artifact as the service holds it. */
export interface Artifact {
  kind: ArtifactKind;
  name: string;
  properties: Record<string, unknown>;
  etag: string;
}

/** A long-running PUT or DELETE: it takes effect when it completes (`doneAt`). */
export interface ArtifactOperation {
  id: string;
  kind: ArtifactKind;
  name: string;
  action: 'put' | 'delete';
  properties?: Record<string, unknown>;
  doneAt: number;
  /** Set once applied. */
  done?: boolean;
}

/** The single workspace the sandbox's development endpoint serves: its Spark pools, artifacts, operations and RBAC. */
export class SynapseStore {
  readonly workspace: string;
  readonly sparkPools = new Set<string>(['sparkpool01']);
  readonly artifacts: Record<ArtifactKind, Map<string, Artifact>> = {
    notebooks: new Map(),
    pipelines: new Map(),
    linkedservices: new Map(),
    datasets: new Map(),
  };
  readonly operations = new Map<string, ArtifactOperation>();
  readonly roleAssignments: Array<{ principalId: string; role: SynapseRole }> = [];
  private etags = 0;

  constructor(
    ids: SandboxIds,
    private readonly idSource: IdSource,
  ) {
    this.workspace = ids.warehouseWorkspace;
    this.roleAssignments.push({ principalId: ids.serviceIdentity.objectId, role: 'Synapse Artifact Publisher' });
  }

  /** The seeded Spark pool (what SVC_SYNAPSE_SPARK_POOL names). */
  get sparkPool(): string {
    return [...this.sparkPools][0]!;
  }

  rolesOf(principalId: string): SynapseRole[] {
    return this.roleAssignments.filter((a) => a.principalId === principalId).map((a) => a.role);
  }

  /** Starts a long-running operation; it is applied by `settle` once `delayMs` passed. */
  begin(op: Omit<ArtifactOperation, 'id' | 'doneAt'>, delayMs: number): ArtifactOperation {
    const started: ArtifactOperation = { ...op, id: this.idSource.next('synapse-operation'), doneAt: Date.now() + delayMs };
    this.operations.set(started.id, started);
    if (delayMs <= 0) this.settle();
    return started;
  }

  /** Applies every operation whose time has come, in the order they were started. */
  settle(now = Date.now()): void {
    for (const op of this.operations.values()) {
      if (op.done || op.doneAt > now) continue;
      op.done = true;
      const map = this.artifacts[op.kind];
      if (op.action === 'delete') map.delete(op.name.toLowerCase());
      else map.set(op.name.toLowerCase(), { kind: op.kind, name: op.name, properties: op.properties!, etag: this.nextEtag() });
    }
  }

  /** An artifact by name (names are case-insensitive), after settling. */
  get(kind: ArtifactKind, name: string): Artifact | undefined {
    this.settle();
    return this.artifacts[kind].get(name.toLowerCase());
  }

  /** Whether an operation on this artifact is still running (a second write meanwhile is refused as the service does). */
  pending(kind: ArtifactKind, name: string): ArtifactOperation | undefined {
    this.settle();
    return [...this.operations.values()].find((o) => !o.done && o.kind === kind && o.name.toLowerCase() === name.toLowerCase());
  }

  nextEtag(): string {
    return `"${(0x2a000000 + ++this.etags).toString(16)}-0000-0100-0000-000000000000"`;
  }

  view() {
    this.settle();
    const of = (kind: ArtifactKind) => [...this.artifacts[kind].values()].map((a) => ({ name: a.name, properties: a.properties }));
    return {
      workspace: this.workspace,
      sparkPools: [...this.sparkPools],
      notebooks: of('notebooks'),
      pipelines: of('pipelines'),
      linkedServices: of('linkedservices'),
      datasets: of('datasets'),
      roleAssignments: this.roleAssignments.map((a) => ({ ...a })),
    };
  }
}
