-- Which tenant may use which backing resource. The service's identity reaches every platform workspace (and its
-- reporting group) and every target it was granted, so the service decides who uses what: a deployment operator
-- assigns each resource to exactly one tenant. `resource` is the resource's normalized key (a lowercase GUID for a
-- platform workspace, a lowercase host[:port] for a KQL cluster, search service, warehouse server or lake account).
CREATE TABLE tenant_resources (
  id          text NOT NULL UNIQUE,
  kind        text NOT NULL,
  resource    text NOT NULL,
  tenant_id   text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  settings    jsonb NOT NULL DEFAULT '{}'::jsonb,
  assigned_by text,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  PRIMARY KEY (kind, resource)
);
CREATE INDEX tenant_resources_tenant ON tenant_resources (tenant_id, kind, created_at, id);

-- The tenant whose work made a refused backing call (null: the deployment's own, such as a start-up check).
ALTER TABLE identity_signals ADD COLUMN IF NOT EXISTS tenant_id text;
CREATE INDEX IF NOT EXISTS identity_signals_tenant ON identity_signals (tenant_id, at);
