import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Scope } from '../auth/scopes.js';
import type { Change, Inverse } from '../identity/journal.js';
import type { Incident, IncidentData } from '../identity/incidents.js';
import type { RotationState } from '../identity/rotation.js';
import type { Rotation } from '../identity/rotations.js';
import type { Severity } from '../identity/severity.js';
import type {
  InstalledItem,
  JobEventKind,
  JobStatus,
  Mode,
  Phase,
  ProvisionReport,
  StepResult,
  TargetOverrides,
} from '../install/types.js';
import type { AppItemStatus, InstalledAppStatus } from '../installed-apps/types.js';
import type { JobKind, JobOptions, LifecyclePhase, LifecycleStepResult } from '../lifecycle/types.js';
import type { PrincipalType, WorkspaceRole } from '../access/roles.js';
import type { ResourceKind, ResourceSettings } from '../tenancy/resources.js';
import type { AuditOutcome } from '../audit/audit-types.js';

type Timestamp = ColumnType<Date, string | undefined, string>;

/** Row types of the store's tables (see migrations/). */
export interface Database {
  tenants: { id: string; name: string; created_at: Timestamp };
  users: {
    id: string;
    tenant_id: string;
    display_name: string;
    email: string | null;
    oidc_subject: string | null;
    /** The identity provider's user principal name (migration 014); null until an OIDC sign-in gives one. */
    upn: ColumnType<string | null, string | null | undefined, string | null>;
    is_admin: Generated<boolean>;
    created_at: Timestamp;
  };
  api_tokens: {
    id: string;
    tenant_id: string;
    user_id: string;
    name: string;
    scopes: Scope[];
    secret_hash: string;
    created_at: Timestamp;
    expires_at: Timestamp;
    last_used_at: Timestamp | null;
    revoked_at: Timestamp | null;
    /** The token this one was minted with (directly or through a session opened with it); null for none. */
    parent_id: ColumnType<string | null, string | null | undefined, string | null>;
    /** The workspaces the token is limited to; null for unlimited. */
    workspace_ids: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
  };
  sessions: {
    id_hash: string;
    tenant_id: string;
    user_id: string;
    token_id: string | null;
    scopes: Scope[];
    csrf_token: string;
    method: string;
    created_at: Timestamp;
    expires_at: Timestamp;
    /** The identity provider's group ids of the signed-in user (empty for token sessions). */
    groups: ColumnType<string[], string[] | undefined, string[]>;
  };
  oidc_logins: {
    state_hash: string;
    code_verifier: string;
    nonce: string;
    redirect_uri: string;
    return_to: string;
    created_at: Timestamp;
    expires_at: Timestamp;
  };
  workspaces: {
    id: string;
    tenant_id: string;
    name: string;
    description: Generated<string>;
    platform_workspace_id: string | null;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  items: {
    id: string;
    tenant_id: string;
    workspace_id: string;
    item_type: string;
    display_name: string;
    description: Generated<string>;
    content: ColumnType<unknown, string, string>;
    etag: string;
    content_source: Generated<string>;
    app_id: string | null;
    provisioning: ColumnType<unknown | null, string | null | undefined, string | null>;
    seeded_at: ColumnType<Date | null, string | null | undefined, string | null>;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  install_jobs: {
    id: string;
    kind: Generated<JobKind>;
    options: ColumnType<JobOptions, string | undefined, string>;
    tenant_id: string;
    workspace_id: string;
    /** Null for a job of the whole workspace (a drift check, an uninstall of a workspace's apps). */
    app_id: string | null;
    created_by: string;
    status: JobStatus;
    phase: Phase | LifecyclePhase;
    percent_complete: Generated<number>;
    total_items: number;
    created_items: Generated<number>;
    deploy: boolean;
    mode: Mode;
    target_overrides: Json<TargetOverrides | null>;
    target: Json<Record<string, string> | null>;
    installed: Json<InstalledItem[]>;
    provision: Json<ProvisionReport | null>;
    lease_owner: string | null;
    lease_expires_at: ColumnType<Date | null, string | null | undefined, string | null>;
    attempts: Generated<number>;
    /** The seq of the job's last event (the next event takes event_seq + 1). */
    event_seq: Generated<number>;
    /** The traceparent of the request that accepted the job or last re-opened a step (migration 015). */
    trace_parent: string | null;
    created_at: Timestamp;
    updated_at: Timestamp;
    finished_at: ColumnType<Date | null, string | null | undefined, string | null>;
  };
  install_steps: {
    job_id: string;
    step_index: number;
    item_key: string;
    item_type: string;
    display_name: string;
    live: boolean;
    cosmos_item_id: string | null;
    result: Json<StepResult | LifecycleStepResult | null>;
    updated_at: Timestamp;
  };
  job_events: { job_id: string; seq: number; kind: JobEventKind; data: Json<Record<string, unknown>>; created_at: Timestamp };
  thread_edges: {
    id: string;
    tenant_id: string;
    workspace_id: string;
    from_item_id: string;
    to_item_id: string;
    kind: string;
    source: string;
    created_at: Timestamp;
  };
  installed_apps: {
    id: string;
    tenant_id: string;
    workspace_id: string;
    app_id: string;
    version: string;
    mode: Mode;
    target: Json<Record<string, string>>;
    status: InstalledAppStatus;
    last_job_id: string;
    created_by: string;
    updated_by: string;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  installed_app_items: {
    workspace_id: string;
    app_id: string;
    item_key: string;
    item_id: string;
    item_type: string;
    resource_id: string | null;
    status: AppItemStatus;
    base_content: ColumnType<unknown | null, string | null | undefined, string | null>;
  };
  identity_signals: {
    id: string;
    tenant_id: string | null;
    principal: string;
    service: string;
    status: number;
    code: string | null;
    path: string;
    at: Timestamp;
  };
  tenant_resources: {
    id: string;
    kind: ResourceKind;
    resource: string;
    tenant_id: string;
    settings: Json<ResourceSettings>;
    assigned_by: string | null;
    created_at: Timestamp;
  };
  identity_changes: {
    id: string;
    tenant_id: string;
    incident_id: string | null;
    kind: string;
    summary: string;
    target: Json<Record<string, unknown>>;
    inverse: Json<Inverse>;
    state: Change['state'];
    created_by: string;
    created_at: Timestamp;
    rolled_back_at: ColumnType<Date | null, string | null | undefined, string | null>;
    rolled_back_by: string | null;
  };
  identity_credentials: {
    id: string;
    tenant_id: string;
    display_name: string;
    client_id: string;
    application_id: string | null;
    key_id: string;
    expires_at: Timestamp;
    vault_secret: string | null;
    consumers: Json<string[]>;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  identity_rotations: {
    id: string;
    tenant_id: string;
    credential_id: string;
    state: RotationState;
    data: Json<Rotation>;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  identity_incidents: {
    id: string;
    tenant_id: string;
    title: string;
    status: Incident['status'];
    severity: Severity;
    data: Json<IncidentData>;
    opened_at: Timestamp;
    closed_at: ColumnType<Date | null, string | null | undefined, string | null>;
    created_by: string;
  };
  /** Append-only (a trigger refuses UPDATE, DELETE and TRUNCATE): see audit/audit-service.ts. */
  audit_events: {
    id: string;
    tenant_id: string;
    at: Timestamp;
    actor_user_id: string | null;
    actor_user_name: string | null;
    actor_token_id: string | null;
    actor_method: string | null;
    kind: string;
    workspace_id: string | null;
    target_type: string;
    target_id: string | null;
    target_name: string | null;
    outcome: AuditOutcome;
    status: number;
    detail: Json<Record<string, unknown> | null>;
    request_id: string;
  };
  identity_incident_events: { incident_id: string; seq: number; kind: string; data: Json<Record<string, unknown>>; at: Timestamp };
  workspace_role_assignments: {
    id: string;
    tenant_id: string;
    workspace_id: string;
    principal_type: PrincipalType;
    principal_id: string;
    role: WorkspaceRole;
    created_at: Timestamp;
    created_by: string;
  };
  directory_groups: { tenant_id: string; id: string; first_seen_at: Timestamp };
}

/** A jsonb column: read as parsed JSON (`T`, what the code wrote), written as JSON text. */
type Json<T> = ColumnType<T, string | null | undefined, string | null>;

/** A row of `table` as read, with every column or the columns `C`. */
export type StoreRow<T extends keyof Database, C extends keyof Database[T] = keyof Database[T]> = Selectable<Pick<Database[T], C>>;
