import type { SandboxIds } from '../ids.js';
import type { Caller } from '../identity/caller.js';
import type { Directory } from '../identity/directory.js';
import type { SwitchValues } from '../switches.js';
import { entityNotFound, kustoError } from './errors.js';
import type { QueryHost, ResultTable } from './query.js';
import { toRuntime, type KqlType } from './values.js';

export interface KqlColumn {
  name: string;
  type: KqlType;
}

export interface KqlTable {
  name: string;
  columns: KqlColumn[];
  rows: unknown[][];
  folder: string;
  docString: string;
  extents: number;
}

export interface KqlFunction {
  name: string;
  parameters: string;
  params: Array<{ name: string; type: KqlType; default?: string }>;
  body: string;
  folder: string;
  docString: string;
}

export type DatabaseRole = 'Admin' | 'User' | 'Viewer' | 'UnrestrictedViewer' | 'Ingestor' | 'Monitor';
export type ClusterRole = 'AllDatabasesAdmin' | 'AllDatabasesViewer' | 'AllDatabasesMonitor';

export interface DatabasePrincipal {
  role: DatabaseRole;
  /** aadapp=<appId>;<tenant> | aaduser=<objectId or UPN>;<tenant> | aadgroup=… */
  fqn: string;
  note: string;
}

export interface KqlDatabase {
  name: string;
  tables: Map<string, KqlTable>;
  functions: Map<string, KqlFunction>;
  principals: DatabasePrincipal[];
  /** Not visible to the data plane until the resource manager's operation completes. */
  readyAt: number;
}

/** A cluster principal assignment, managed by the resource manager (shared with the ARM emulator). */
export interface ClusterAssignment {
  name: string;
  principalId: string;
  principalType: 'App' | 'Group' | 'User';
  role: ClusterRole;
  tenantId: string;
}

/** What an action needs: write = create tables/functions, admin = manage principals. */
export type KqlAction = 'read' | 'write' | 'ingest' | 'admin' | 'monitor';

const DB_ROLE_ACTIONS: Record<DatabaseRole, KqlAction[]> = {
  Admin: ['read', 'write', 'ingest', 'admin', 'monitor'],
  User: ['read', 'write', 'ingest', 'monitor'],
  Viewer: ['read', 'monitor'],
  UnrestrictedViewer: ['read', 'monitor'],
  Ingestor: ['ingest'],
  Monitor: ['monitor'],
};

const CLUSTER_ROLE_ACTIONS: Record<ClusterRole, KqlAction[]> = {
  AllDatabasesAdmin: ['read', 'write', 'ingest', 'admin', 'monitor'],
  AllDatabasesViewer: ['read', 'monitor'],
  AllDatabasesMonitor: ['monitor'],
};

const VERB: Record<KqlAction, string> = {
  read: 'read from',
  write: 'write to',
  ingest: 'ingest into',
  admin: 'perform admin actions on',
  monitor: 'monitor',
};

/** The KQL cluster's state: databases (created by the resource manager), tables, rows, functions and principals. */
export class KqlEngine {
  readonly databases = new Map<string, KqlDatabase>();
  readonly clusterAssignments = new Map<string, ClusterAssignment>();

  constructor(
    readonly ids: SandboxIds,
    readonly directory: Directory,
    readonly switches: SwitchValues,
  ) {
    const mi = ids.serviceIdentity;
    this.clusterAssignments.set('svc-identity-admin', {
      name: 'svc-identity-admin',
      principalId: mi.appId,
      principalType: 'App',
      role: 'AllDatabasesAdmin',
      tenantId: ids.tenantId,
    });
  }

  /** The principal string Kusto shows for a caller. */
  fqn(caller: Caller): string {
    return caller.isApp ? `aadapp=${caller.appId};${caller.tenantId}` : `aaduser=${caller.objectId};${caller.tenantId}`;
  }

  /** A database visible to the data plane (case-insensitive lookup, as Kusto resolves database names). */
  database(name: string | undefined): KqlDatabase | undefined {
    if (!name) return undefined;
    const db = [...this.databases.values()].find((d) => d.name.toLowerCase() === name.toLowerCase());
    return db && Date.now() >= db.readyAt ? db : undefined;
  }

  requireDatabase(name: string | undefined): KqlDatabase {
    const db = this.database(name);
    if (!db) throw entityNotFound(name ?? '', 'Database');
    return db;
  }

  createDatabase(name: string, readyAt: number): KqlDatabase {
    const db: KqlDatabase = { name, tables: new Map(), functions: new Map(), principals: [], readyAt };
    this.databases.set(name.toLowerCase(), db);
    return db;
  }

  /** Whether a role assignment's principal names the caller (app id for apps; object id or UPN for users). */
  private names(caller: Caller, principal: string): boolean {
    const p = principal.toLowerCase();
    return [caller.appId, caller.objectId, caller.upn?.toLowerCase()].some((x) => x && x.toLowerCase() === p);
  }

  /** The actions the caller may perform on a database (cluster roles plus database roles). */
  actions(caller: Caller, db: KqlDatabase | undefined): Set<KqlAction> {
    const out = new Set<KqlAction>();
    for (const a of this.clusterAssignments.values()) {
      if ((!a.tenantId || a.tenantId === caller.tenantId) && this.names(caller, a.principalId))
        for (const x of CLUSTER_ROLE_ACTIONS[a.role]) out.add(x);
    }
    for (const p of db?.principals ?? []) {
      const m = /^aad(app|user|group)=([^;]+)(?:;(.+))?$/i.exec(p.fqn);
      if (m && (!m[3] || m[3] === caller.tenantId || m[3] === this.ids.tenantDomain) && this.names(caller, m[2]!))
        for (const x of DB_ROLE_ACTIONS[p.role]) out.add(x);
    }
    return out;
  }

  /** 403 Forbidden (UnauthorizedDatabaseAccessException) unless the caller may perform the action. */
  authorize(caller: Caller, db: KqlDatabase | undefined, action: KqlAction): void {
    if (this.actions(caller, db).has(action)) return;
    throw kustoError(
      403,
      'Forbidden',
      'Kusto.DataNode.Exceptions.UnauthorizedDatabaseAccessException',
      `Principal '${this.fqn(caller)}' is not authorized to ${VERB[action]} database '${db?.name ?? ''}'.`,
    );
  }

  /** The query engine's view of a database: tables with runtime values and stored functions. */
  host(db: KqlDatabase): QueryHost {
    return {
      table: (name): ResultTable | undefined => {
        const t = db.tables.get(name);
        if (!t) return undefined;
        return {
          columns: t.columns.map((c) => ({ ...c })),
          rows: t.rows.map((r) => Object.fromEntries(t.columns.map((c, i) => [c.name, toRuntime(r[i], c.type)]))),
        };
      },
      fn: (name) => db.functions.get(name),
    };
  }

  view() {
    return {
      databases: [...this.databases.values()].map((db) => ({
        name: db.name,
        ready: Date.now() >= db.readyAt,
        tables: [...db.tables.values()].map((t) => ({
          name: t.name,
          columns: t.columns.map((c) => ({ ...c })),
          rowCount: t.rows.length,
          folder: t.folder,
        })),
        functions: [...db.functions.values()].map((f) => ({ name: f.name, parameters: f.parameters, folder: f.folder })),
        principals: db.principals.map((p) => ({ ...p })),
      })),
      principalAssignments: [...this.clusterAssignments.values()].map((a) => ({ ...a })),
    };
  }
}
