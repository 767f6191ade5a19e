import type { SandboxIds } from '../ids.js';
import type { PathTree } from '../onelake/tree.js';

/** The data-plane roles of a storage account (Azure RBAC built-in roles), weakest first. */
export const LAKE_ROLES = ['Storage Blob Data Reader', 'Storage Blob Data Contributor', 'Storage Blob Data Owner'] as const;
export type LakeRole = (typeof LAKE_ROLES)[number];

/** A filesystem (blob container) of an account: its paths. */
export interface Filesystem {
  name: string;
  createdAt: number;
  tree: PathTree;
}

/** A storage account with a hierarchical namespace: its filesystems and who holds which data role on it. */
export interface LakeAccount {
  name: string;
  filesystems: Map<string, Filesystem>;
  /** Role assignments at the account scope, by principal object id. */
  roles: Map<string, LakeRole>;
}

/** The lake's storage accounts; seeded with one account and container, the service identity a Storage Blob Data Contributor. */
export class LakeStore {
  readonly accounts = new Map<string, LakeAccount>();

  constructor(ids: SandboxIds) {
    const account: LakeAccount = { name: ids.lakeAccount, filesystems: new Map(), roles: new Map() };
    account.filesystems.set(ids.lakeContainer, { name: ids.lakeContainer, createdAt: Date.now(), tree: new Map() });
    account.roles.set(ids.serviceIdentity.objectId, 'Storage Blob Data Contributor');
    this.accounts.set(account.name, account);
  }

  /** Whether a principal's role on the account allows reading (Reader and up) or writing (Contributor and up). */
  allowed(account: LakeAccount, objectId: string, write: boolean): boolean {
    const role = account.roles.get(objectId);
    return role !== undefined && LAKE_ROLES.indexOf(role) >= (write ? 1 : 0);
  }

  /** Every account's filesystems and their paths, for the admin state view. */
  view() {
    return [...this.accounts.values()].map((a) => ({
      account: a.name,
      filesystems: [...a.filesystems.values()].map((f) => ({
        name: f.name,
        paths: [...f.tree.entries()]
          .map(([p, e]) => ({ path: p, isDirectory: e.isDirectory, size: e.content?.length ?? 0 }))
          .sort((x, y) => x.path.localeCompare(y.path)),
      })),
      roles: [...a.roles.entries()].map(([principalId, role]) => ({ principalId, role })),
    }));
  }
}
