-- Install jobs: the job, its steps (the work), and an append-only event log.
CREATE TABLE install_jobs (
  id                text PRIMARY KEY,
  tenant_id         text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  workspace_id      text NOT NULL,
  app_id            text NOT NULL,
  created_by        text NOT NULL,
  status            text NOT NULL,
  phase             text NOT NULL,
  percent_complete  integer NOT NULL DEFAULT 0,
  total_items       integer NOT NULL,
  created_items     integer NOT NULL DEFAULT 0,
  deploy            boolean NOT NULL,
  mode              text NOT NULL,
  target_overrides  jsonb,
  target            jsonb,
  installed         jsonb NOT NULL DEFAULT '[]'::jsonb,
  provision         jsonb,
  lease_owner       text,
  lease_expires_at  timestamptz,
  attempts          integer NOT NULL DEFAULT 0,
  created_at        timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  finished_at       timestamptz
);
CREATE INDEX install_jobs_claim ON install_jobs (status, lease_expires_at) WHERE status = 'running';
CREATE INDEX install_jobs_tenant ON install_jobs (tenant_id, workspace_id, created_at, id);

CREATE TABLE install_steps (
  job_id          text NOT NULL REFERENCES install_jobs(id) ON DELETE CASCADE,
  step_index      integer NOT NULL,
  item_key        text NOT NULL,
  item_type       text NOT NULL,
  display_name    text NOT NULL,
  live            boolean NOT NULL,
  cosmos_item_id  text,
  result          jsonb,
  updated_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (job_id, step_index)
);

CREATE TABLE job_events (
  job_id      text NOT NULL REFERENCES install_jobs(id) ON DELETE CASCADE,
  seq         integer NOT NULL,
  kind        text NOT NULL,
  data        jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (job_id, seq)
);

-- The thread: lineage edges between items of a workspace.
CREATE TABLE thread_edges (
  id            text PRIMARY KEY,
  tenant_id     text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  workspace_id  text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  from_item_id  text NOT NULL REFERENCES items(id) ON DELETE CASCADE,
  to_item_id    text NOT NULL REFERENCES items(id) ON DELETE CASCADE,
  kind          text NOT NULL,
  source        text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())
);
CREATE UNIQUE INDEX thread_edges_unique ON thread_edges (workspace_id, from_item_id, to_item_id, kind);
