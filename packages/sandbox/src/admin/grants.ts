import type { SandboxCore } from '../core.js';
import type { Grant } from '../types.js';
import { Directory, type Principal } from '../identity/directory.js';
import { ROLE_RANK, type WorkspaceRole } from '../data-platform/store.js';
import type { ClusterRole, DatabaseRole } from '../kql/engine.js';
import type { ArmRole } from '../arm/store.js';
import { SEARCH_ROLES, type SearchRole } from '../search/store.js';
import { FIXED_ROLES } from '../sql/state.js';
import { SYNAPSE_ROLES, type SynapseRole } from '../synapse/store.js';
import { LAKE_ROLES, type LakeRole } from '../lake/store.js';
import { SERVERLESS_ADMIN_ROLE } from '../sql/serverless-endpoint.js';

/** An error of the admin API (400 unless said otherwise). */
export class AdminError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

const CLUSTER_ROLES = ['AllDatabasesAdmin', 'AllDatabasesViewer', 'AllDatabasesMonitor'];
const DB_ROLES = ['Admin', 'User', 'Viewer', 'UnrestrictedViewer', 'Ingestor', 'Monitor'];

function principalOf(core: SandboxCore, ref: string | undefined): Principal {
  const p = ref ? core.directory.find(ref) : core.directory.serviceIdentity;
  if (!p) throw new AdminError(`unknown principal '${ref}'`, 404);
  return p;
}

/** Grants (add = true) or revokes a role on one service; every remediation gate can be produced this way. */
export function applyGrant(core: SandboxCore, g: Grant, add: boolean): { changed: boolean } {
  if (!g || typeof g !== 'object') throw new AdminError('a grant needs {service, role, principal?}');
  const p = principalOf(core, g.principal);
  switch (g.service) {
    // A reporting group is the platform workspace: one set of workspace roles serves both APIs.
    case 'reporting':
    case 'dataPlatform': {
      if (!(g.role in ROLE_RANK)) throw new AdminError(`dataPlatform roles are ${Object.keys(ROLE_RANK).join(', ')}`);
      const ws = core.dataPlatform.workspaces.get((g.workspaceId ?? core.ids.platformWorkspaceId).toLowerCase());
      if (!ws) throw new AdminError(`unknown workspace '${g.workspaceId}'`, 404);
      const current = ws.roleAssignments.get(p.objectId);
      if (add) {
        ws.roleAssignments.set(p.objectId, {
          id: p.objectId,
          principal: { id: p.objectId, type: Directory.isApp(p) ? 'ServicePrincipal' : 'User' },
          role: g.role as WorkspaceRole,
        });
        return { changed: current?.role !== g.role };
      }
      if (current && current.role === g.role) ws.roleAssignments.delete(p.objectId);
      return { changed: Boolean(current && current.role === g.role) };
    }
    case 'arm':
    case 'eventHubs': {
      const roles = g.service === 'arm' ? ['Owner', 'Contributor', 'Reader', 'Monitoring Contributor'] : ['Owner', 'Contributor', 'Reader'];
      if (!roles.includes(g.role)) throw new AdminError(`${g.service} roles are ${roles.join(', ')}`);
      const list = core.arm.roleAssignments;
      // arm: the KQL cluster, or (Monitoring Contributor) the alert resource group of activator rules; eventHubs: the
      // Event Hubs namespace (all resource manager scopes).
      const scope =
        g.service === 'eventHubs'
          ? core.ids.eventHubNamespaceId
          : g.role === 'Monitoring Contributor'
            ? core.arm.monitor.ids.resourceGroupId
            : core.ids.kqlClusterResourceId;
      const i = list.findIndex((a) => a.principalId === p.objectId && a.role === g.role && a.scope === scope);
      if (add && i < 0) list.push({ principalId: p.objectId, role: g.role as ArmRole, scope });
      if (!add) {
        // Revoking removes the role at every scope that reaches the resource.
        const before = list.length;
        for (let j = list.length - 1; j >= 0; j--)
          if (
            list[j]!.principalId === p.objectId &&
            list[j]!.role === g.role &&
            scope.toLowerCase().startsWith(list[j]!.scope.toLowerCase())
          )
            list.splice(j, 1);
        return { changed: list.length !== before };
      }
      return { changed: i < 0 };
    }
    case 'kql': {
      const id = Directory.isApp(p) ? p.appId! : p.objectId;
      if (CLUSTER_ROLES.includes(g.role)) {
        const map = core.kql.clusterAssignments;
        const matches = [...map.values()].filter((a) => a.role === g.role && core.directory.find(a.principalId)?.objectId === p.objectId);
        if (add && !matches.length)
          map.set(`sandbox-${g.role}-${id}`.toLowerCase(), {
            name: `sandbox-${g.role}-${id}`.toLowerCase(),
            principalId: id,
            principalType: Directory.isApp(p) ? 'App' : 'User',
            role: g.role as ClusterRole,
            tenantId: core.ids.tenantId,
          });
        if (!add) for (const a of matches) map.delete(a.name);
        return { changed: add ? !matches.length : matches.length > 0 };
      }
      if (!DB_ROLES.includes(g.role))
        throw new AdminError(`kql roles are ${[...CLUSTER_ROLES, ...DB_ROLES].join(', ')} (database roles need 'database')`);
      const db = core.kql.databases.get(String(g.database ?? '').toLowerCase());
      if (!db) throw new AdminError(`unknown KQL database '${g.database}'`, 404);
      const fqn = `${Directory.isApp(p) ? 'aadapp' : 'aaduser'}=${id};${core.ids.tenantId}`;
      const i = db.principals.findIndex((x) => x.role === g.role && x.fqn.toLowerCase() === fqn.toLowerCase());
      if (add && i < 0) db.principals.push({ role: g.role as DatabaseRole, fqn, note: 'sandbox admin grant' });
      if (!add && i >= 0) db.principals.splice(i, 1);
      return { changed: add ? i < 0 : i >= 0 };
    }
    case 'search': {
      if (!SEARCH_ROLES.includes(g.role as SearchRole)) throw new AdminError(`search roles are ${SEARCH_ROLES.join(', ')}`);
      const list = core.search.roleAssignments;
      const i = list.findIndex((a) => a.principalId === p.objectId && a.role === g.role);
      if (add && i < 0) list.push({ principalId: p.objectId, role: g.role as SearchRole });
      if (!add && i >= 0) list.splice(i, 1);
      return { changed: add ? i < 0 : i >= 0 };
    }
    case 'sql': {
      const sql = core.sql;
      if (!sql) throw new AdminError('the sandbox has no SQL endpoint', 404);
      const role = g.role.toLowerCase();
      if (role !== 'user' && !FIXED_ROLES.includes(role)) throw new AdminError(`sql roles are user, ${FIXED_ROLES.join(', ')}`);
      const dbs = [...sql.state().databases.values()].filter((d) =>
        g.database ? d.name.toLowerCase() === g.database.toLowerCase() : true,
      );
      if (g.database && !dbs.length) throw new AdminError(`unknown SQL database '${g.database}'`, 404);
      // The database user is named as CREATE USER … FROM EXTERNAL PROVIDER names it: the principal's display name.
      const before = JSON.stringify(sql.view().databases.map((d) => d.users));
      const options = g.database ? { database: g.database } : {};
      if (add) sql.grantUser(p.displayName, { ...options, role: role === 'user' ? null : role });
      else if (role === 'user') sql.revokeUser(p.displayName, options);
      else for (const d of dbs) d.roles.get(role)?.delete(p.displayName.toLowerCase());
      return { changed: JSON.stringify(sql.view().databases.map((d) => d.users)) !== before };
    }
    case 'synapse': {
      if (!(g.role in SYNAPSE_ROLES)) throw new AdminError(`synapse roles are ${Object.keys(SYNAPSE_ROLES).join(', ')}`);
      const list = core.synapse.roleAssignments;
      const i = list.findIndex((a) => a.principalId === p.objectId && a.role === g.role);
      if (add && i < 0) list.push({ principalId: p.objectId, role: g.role as SynapseRole });
      if (!add && i >= 0) list.splice(i, 1);
      return { changed: add ? i < 0 : i >= 0 };
    }
    case 'lake': {
      // A data role at the scope of the seeded account (or the one `database` names), as an Azure role assignment.
      if (!LAKE_ROLES.includes(g.role as LakeRole)) throw new AdminError(`lake roles are ${LAKE_ROLES.join(', ')}`);
      const account = core.lake.accounts.get(g.database ?? core.ids.lakeAccount);
      if (!account) throw new AdminError(`unknown lake account '${g.database}'`, 404);
      const current = account.roles.get(p.objectId);
      if (add) account.roles.set(p.objectId, g.role as LakeRole);
      else if (current === g.role) account.roles.delete(p.objectId);
      return { changed: add ? current !== g.role : current === g.role };
    }
    case 'sqlServerless': {
      if (g.role !== SERVERLESS_ADMIN_ROLE) throw new AdminError(`sqlServerless roles are ${SERVERLESS_ADMIN_ROLE}`);
      const i = core.serverlessAdmins.indexOf(p.objectId);
      if (add && i < 0) core.serverlessAdmins.push(p.objectId);
      if (!add && i >= 0) core.serverlessAdmins.splice(i, 1);
      return { changed: add ? i < 0 : i >= 0 };
    }
    default:
      throw new AdminError('service must be dataPlatform, reporting, arm, eventHubs, kql, search, sql, synapse, lake or sqlServerless');
  }
}
