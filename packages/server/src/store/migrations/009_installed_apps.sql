-- Installed apps: what an install left in a workspace, one row per app per workspace, written in the transaction that
-- writes its job's final state. `target` is the resolved target of the install (addresses and names, never a secret).
CREATE TABLE installed_apps (
  id           text NOT NULL UNIQUE,
  tenant_id    text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  workspace_id text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  app_id       text NOT NULL,
  version      text NOT NULL,
  mode         text NOT NULL,
  target       jsonb NOT NULL DEFAULT '{}'::jsonb,
  status       text NOT NULL,
  last_job_id  text NOT NULL,
  created_by   text NOT NULL,
  updated_by   text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, app_id)
);
CREATE INDEX installed_apps_tenant ON installed_apps (tenant_id, workspace_id, created_at, id);

-- The items of an installed app by the app's item key: the stored item and, once provisioned, its live resource.
-- Deleting the stored item takes it out of the app.
CREATE TABLE installed_app_items (
  workspace_id text NOT NULL,
  app_id       text NOT NULL,
  item_key     text NOT NULL,
  item_id      text NOT NULL REFERENCES items(id) ON DELETE CASCADE,
  item_type    text NOT NULL,
  resource_id  text,
  status       text NOT NULL,
  PRIMARY KEY (workspace_id, app_id, item_key),
  FOREIGN KEY (workspace_id, app_id) REFERENCES installed_apps (workspace_id, app_id) ON DELETE CASCADE
);
CREATE INDEX installed_app_items_item ON installed_app_items (item_id);
