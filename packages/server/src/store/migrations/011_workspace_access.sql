-- Workspace roles (issue 21). A principal (a user of the tenant, or an identity-provider group id) holds one role on a
-- workspace; the creator gets Admin. Existing workspaces get none: the tenant's admins (admin scope) see every
-- workspace and assign roles.
CREATE TABLE workspace_role_assignments (
  id              text PRIMARY KEY,
  tenant_id       text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  workspace_id    text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  principal_type  text NOT NULL CHECK (principal_type IN ('User', 'Group')),
  principal_id    text NOT NULL,
  role            text NOT NULL CHECK (role IN ('Admin', 'Member', 'Contributor', 'Viewer')),
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  created_by      text NOT NULL,
  UNIQUE (workspace_id, principal_type, principal_id)
);
-- Visibility lookups go from a principal to its workspaces.
CREATE INDEX workspace_role_assignments_principal ON workspace_role_assignments (tenant_id, principal_type, principal_id);

-- A token may be limited to listed workspaces (NULL: unlimited).
ALTER TABLE api_tokens ADD COLUMN workspace_ids text[];

-- The identity provider's group ids of a console session (from the id token's groups claim).
ALTER TABLE sessions ADD COLUMN groups text[] NOT NULL DEFAULT '{}';

-- The group ids the service has seen at sign-in, per tenant: what the principal search offers.
CREATE TABLE directory_groups (
  tenant_id      text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  id             text NOT NULL,
  first_seen_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  PRIMARY KEY (tenant_id, id)
);
