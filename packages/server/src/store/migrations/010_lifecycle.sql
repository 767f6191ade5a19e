-- The app lifecycle (issue 19). A job has a kind: one durable job mechanism (leases, resume, events, per-step results,
-- retry) runs installs, upgrades, uninstalls, applies and drift checks. Existing jobs are installs. A lifecycle job's
-- options (purgeData, removeDropped, the item of an apply, …) are fixed when it is accepted; drift has no app.
ALTER TABLE install_jobs ADD COLUMN kind text NOT NULL DEFAULT 'install';
ALTER TABLE install_jobs ADD COLUMN options jsonb NOT NULL DEFAULT '{}'::jsonb;
ALTER TABLE install_jobs ALTER COLUMN app_id DROP NOT NULL;
CREATE INDEX install_jobs_kind ON install_jobs (tenant_id, workspace_id, kind, created_at, id);

-- When a catalog item's seed tokens were expanded (its stored content's timestamps): an upgrade expands the new
-- version's content at the same instant, so parts nobody changed compare equal.
ALTER TABLE items ADD COLUMN seeded_at timestamptz;

-- The content the installed catalog version shipped (as stored at install): the base of an upgrade's three-way merge.
ALTER TABLE installed_app_items ADD COLUMN base_content jsonb;
