-- Identity operations: auth-failure signals, the change journal, credentials by metadata, rotations, incidents.
CREATE TABLE identity_signals (
  id         text PRIMARY KEY,
  principal  text NOT NULL,
  service    text NOT NULL,
  status     integer NOT NULL,
  code       text,
  path       text NOT NULL DEFAULT '',
  at         timestamptz NOT NULL
);
CREATE INDEX identity_signals_at ON identity_signals (at);

CREATE TABLE identity_changes (
  id              text PRIMARY KEY,
  tenant_id       text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  incident_id     text,
  kind            text NOT NULL,
  summary         text NOT NULL,
  target          jsonb NOT NULL,
  inverse         jsonb NOT NULL,
  state           text NOT NULL,
  created_by      text NOT NULL,
  created_at      timestamptz NOT NULL,
  rolled_back_at  timestamptz,
  rolled_back_by  text
);
CREATE INDEX identity_changes_tenant ON identity_changes (tenant_id, created_at, id);

CREATE TABLE identity_credentials (
  id              text PRIMARY KEY,
  tenant_id       text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  display_name    text NOT NULL,
  client_id       text NOT NULL,
  application_id  text,
  key_id          text NOT NULL,
  expires_at      timestamptz NOT NULL,
  vault_secret    text,
  consumers       jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL
);
CREATE UNIQUE INDEX identity_credentials_key ON identity_credentials (tenant_id, client_id, key_id);

CREATE TABLE identity_rotations (
  id             text PRIMARY KEY,
  tenant_id      text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  credential_id  text NOT NULL REFERENCES identity_credentials(id) ON DELETE CASCADE,
  state          text NOT NULL,
  data           jsonb NOT NULL,
  created_at     timestamptz NOT NULL,
  updated_at     timestamptz NOT NULL
);

CREATE TABLE identity_incidents (
  id          text PRIMARY KEY,
  tenant_id   text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  title       text NOT NULL,
  status      text NOT NULL,
  severity    text NOT NULL,
  data        jsonb NOT NULL,
  opened_at   timestamptz NOT NULL,
  closed_at   timestamptz,
  created_by  text NOT NULL
);
CREATE INDEX identity_incidents_tenant ON identity_incidents (tenant_id, opened_at, id);

CREATE TABLE identity_incident_events (
  incident_id  text NOT NULL REFERENCES identity_incidents(id) ON DELETE CASCADE,
  seq          integer NOT NULL,
  kind         text NOT NULL,
  data         jsonb NOT NULL,
  at           timestamptz NOT NULL,
  PRIMARY KEY (incident_id, seq)
);
