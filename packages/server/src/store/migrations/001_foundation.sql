-- Tenants, users, scoped API tokens and console sessions.
CREATE TABLE tenants (
  id          text PRIMARY KEY,
  name        text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())
);

CREATE TABLE users (
  id            text PRIMARY KEY,
  tenant_id     text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  display_name  text NOT NULL,
  email         text,
  oidc_subject  text,
  is_admin      boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())
);
CREATE UNIQUE INDEX users_oidc_subject ON users (tenant_id, oidc_subject) WHERE oidc_subject IS NOT NULL;

CREATE TABLE api_tokens (
  id            text PRIMARY KEY,
  tenant_id     text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  user_id       text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name          text NOT NULL,
  scopes        text[] NOT NULL,
  secret_hash   text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  expires_at    timestamptz NOT NULL,
  last_used_at  timestamptz,
  revoked_at    timestamptz
);
CREATE INDEX api_tokens_tenant ON api_tokens (tenant_id, created_at, id);

CREATE TABLE sessions (
  id_hash     text PRIMARY KEY,
  tenant_id   text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  user_id     text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_id    text REFERENCES api_tokens(id) ON DELETE CASCADE,
  scopes      text[] NOT NULL,
  csrf_token  text NOT NULL,
  method      text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  expires_at  timestamptz NOT NULL
);

-- Workspaces and their items.
CREATE TABLE workspaces (
  id                     text PRIMARY KEY,
  tenant_id              text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  name                   text NOT NULL,
  description            text NOT NULL DEFAULT '',
  platform_workspace_id  text,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  updated_at             timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX workspaces_tenant ON workspaces (tenant_id, created_at, id);

CREATE TABLE items (
  id              text PRIMARY KEY,
  tenant_id       text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  workspace_id    text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  item_type       text NOT NULL,
  display_name    text NOT NULL,
  description     text NOT NULL DEFAULT '',
  content         jsonb NOT NULL DEFAULT '{}'::jsonb,
  etag            text NOT NULL,
  content_source  text NOT NULL DEFAULT 'user',
  app_id          text,
  provisioning    jsonb,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX items_type_name ON items (workspace_id, item_type, lower(display_name));
CREATE INDEX items_workspace ON items (tenant_id, workspace_id, created_at, id);
