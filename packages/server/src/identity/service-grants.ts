import type { BackingService } from '../backends/http-pipeline.js';

type OtherService = Exclude<BackingService, 'data-platform'>;
type Action = { action: string; command: string };

/**
 * Required grants per backing service when a call returns 401 or 403 (SPEC.md, authentication towards backing
 * services; the data platform's roles per call from reference/data-platform-api.md).
 */
export const REQUIRED_GRANTS: Record<OtherService, string> = {
  arm: 'Contributor on the cluster',
  kql: 'the AllDatabasesAdmin cluster principal role, principal type App',
  search: 'the Search Service Contributor role on the service (and Search Index Data Contributor to load documents)',
  sql: 'a database user created FROM EXTERNAL PROVIDER for the identity, added to role db_owner',
  reporting:
    'the tenant setting that lets service principals use the reporting APIs ("Service principals can use Fabric APIs") is enabled, and the identity holds Contributor or higher on the workspace to publish (Member or higher for embed tokens), with Build permission on the source semantic model',
  storage:
    'a workspace role on the platform workspace that reaches the lakehouse’s OneLake data: Contributor or higher to write, at least Viewer with read access to the lakehouse data to read',
  synapse:
    'the Synapse RBAC role "Synapse Artifact Publisher" (or Synapse Contributor) on the Synapse workspace, assigned in Synapse Studio (Manage, Access control)',
  identity:
    'a valid credential for the identity in the tenant (managed identity enabled, or a current client secret or certificate for the client id) that conditional access lets through; for secret rotation, the right to manage the application’s passwords (its owner, or Application.ReadWrite.OwnedBy) and to set secrets in the vault',
};

/**
 * Services whose 401/403 is answered by a role on the service itself, not by a workspace role: what the role is
 * called, and the command that assigns it (`svc identity grant` assigns workspace roles only).
 */
const OWN_ROLES: Partial<Record<OtherService, { name: string; role: string; command: string; list: string }>> = {
  search: {
    name: 'the search service',
    list: 'az role assignment list --assignee <principal id> --scope <search service id>',
    role: 'Search Service Contributor (and Search Index Data Contributor to load documents)',
    command:
      'az role assignment create --role "Search Service Contributor" --assignee <principal id> --scope <search service id>; the same with --role "Search Index Data Contributor"',
  },
  arm: {
    name: 'resource manager (the KQL cluster)',
    list: 'az role assignment list --assignee <principal id> --scope <cluster id>',
    role: 'Contributor on the cluster',
    command: 'az role assignment create --role Contributor --assignee <principal id> --scope <cluster id>',
  },
  kql: {
    name: 'the KQL cluster',
    list: '.show cluster principals',
    role: 'the AllDatabasesAdmin cluster principal role (principal type App)',
    command: ".add cluster AllDatabasesAdmin ('aadapp=<client id>;<tenant id>')",
  },
  sql: {
    name: 'the warehouse',
    list: "SELECT name, type_desc FROM sys.database_principals WHERE name = '<identity name>';",
    role: 'a database user FROM EXTERNAL PROVIDER in role db_owner',
    command: "CREATE USER [<identity name>] FROM EXTERNAL PROVIDER; EXEC sp_addrolemember 'db_owner', '<identity name>';",
  },
  synapse: {
    name: 'the Synapse workspace',
    list: 'az synapse role assignment list --workspace-name <workspace> --assignee <principal id>',
    role: 'the Synapse RBAC role "Synapse Artifact Publisher" (or Synapse Contributor)',
    command: 'az synapse role assignment create --workspace-name <workspace> --role "Synapse Artifact Publisher" --assignee <principal id>',
  },
};

/**
 * A 401/403 from a service that grants its own role (search, KQL, the warehouse, Synapse, resource manager): the
 * symptom named after the service, a 403's causes, and the action that assigns its role, in place of the data
 * platform's workspace and lakehouse roles; undefined for any other service or status.
 */
export function ownRoleAdvice(
  service: BackingService,
  status: number | undefined,
): { symptom: string; likelyCauses?: string[]; list: Action; assign: Action } | undefined {
  const own = service === 'data-platform' ? undefined : OWN_ROLES[service];
  if (!own || (status !== 401 && status !== 403)) return undefined;
  return {
    symptom: `HTTP ${status} from ${own.name}`,
    ...(status === 403
      ? {
          likelyCauses: [
            `the identity lacks ${own.role} on ${own.name}`,
            'the role was assigned at another scope (another resource) or has not propagated yet',
          ],
        }
      : {}),
    list: { action: `list the role assignments of the identity’s principal id on ${own.name}`, command: own.list },
    assign: {
      action: `assign the identity ${own.role} on ${own.name} (a role on that service itself)`,
      command: own.command,
    },
  };
}
