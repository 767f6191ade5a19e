import type { SandboxIds } from '../ids.js';

export type SearchRole = 'Search Service Contributor' | 'Search Index Data Contributor' | 'Search Index Data Reader';
export const SEARCH_ROLES: SearchRole[] = ['Search Service Contributor', 'Search Index Data Contributor', 'Search Index Data Reader'];

export interface SearchIndex {
  name: string;
  /** The full definition as the service echoes it (every attribute present). */
  definition: Record<string, any>;
  keyField: string;
  etag: string;
  docs: Map<string, Record<string, unknown>>;
}

/** The search service: indexes with their documents, and RBAC role assignments. */
export class SearchStore {
  readonly indexes = new Map<string, SearchIndex>();
  readonly roleAssignments: Array<{ principalId: string; role: SearchRole }> = [];
  private etagCounter = 0;

  constructor(readonly ids: SandboxIds) {
    const mi = ids.serviceIdentity.objectId;
    this.roleAssignments.push(
      { principalId: mi, role: 'Search Service Contributor' },
      { principalId: mi, role: 'Search Index Data Contributor' },
    );
  }

  nextEtag(): string {
    return `"0x8DD${(0x1000000 + ++this.etagCounter).toString(16).toUpperCase()}${'0'.repeat(6)}"`;
  }

  rolesOf(principalId: string): SearchRole[] {
    return this.roleAssignments.filter((a) => a.principalId === principalId).map((a) => a.role);
  }

  view() {
    return {
      indexes: [...this.indexes.values()].map((i) => ({
        name: i.name,
        fields: (i.definition.fields as Array<{ name: string; type: string; key: boolean }>).map((f) => ({
          name: f.name,
          type: f.type,
          key: f.key,
        })),
        documentCount: i.docs.size,
      })),
      roleAssignments: this.roleAssignments.map((a) => ({ ...a })),
    };
  }
}
