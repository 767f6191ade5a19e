-- The audit trail (issue 21): one row per audited request (access changes, destructive and outward operations,
-- sign-ins). Append-only: the store itself refuses UPDATE, DELETE and TRUNCATE, whoever asks. tenant_id is plain text
-- with no foreign key, so no cascade from a deleted tenant, workspace or user removes rows behind the trigger's back.
CREATE TABLE audit_events (
  id               text PRIMARY KEY,
  tenant_id        text NOT NULL,
  at               timestamptz NOT NULL DEFAULT now(),
  actor_user_id    text,
  actor_user_name  text,
  actor_token_id   text,
  actor_method     text,
  kind             text NOT NULL,
  workspace_id     text,
  target_type      text NOT NULL,
  target_id        text,
  target_name      text,
  outcome          text NOT NULL CHECK (outcome IN ('succeeded', 'refused', 'failed', 'accepted')),
  status           integer NOT NULL,
  detail           jsonb,
  request_id       text NOT NULL
);
CREATE INDEX audit_events_tenant_at ON audit_events (tenant_id, at DESC, id DESC);
CREATE INDEX audit_events_workspace_at ON audit_events (tenant_id, workspace_id, at DESC) WHERE workspace_id IS NOT NULL;

CREATE OR REPLACE FUNCTION svc_audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: % is refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION svc_audit_events_append_only();
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION svc_audit_events_append_only();
