-- Workspace names are unique per tenant, compared case-insensitively (issue 22; names are trimmed when written).
-- A store may already hold duplicates: every copy after the oldest (created_at, then id) is renamed first, to the
-- name with " (2)", " (3)", ... appended, the lowest suffix no workspace of the tenant holds, so the index can be built.
DO $$
DECLARE
  dup record;
  n int;
  candidate text;
BEGIN
  FOR dup IN
    SELECT id, tenant_id, name FROM (
      SELECT id, tenant_id, name,
             row_number() OVER (PARTITION BY tenant_id, lower(name) ORDER BY created_at, id) AS rn
        FROM workspaces
    ) ranked
    WHERE rn > 1
    ORDER BY tenant_id, lower(name), rn
  LOOP
    n := 2;
    LOOP
      candidate := dup.name || ' (' || n || ')';
      EXIT WHEN NOT EXISTS (SELECT 1 FROM workspaces WHERE tenant_id = dup.tenant_id AND lower(name) = lower(candidate));
      n := n + 1;
    END LOOP;
    UPDATE workspaces SET name = candidate, updated_at = now() WHERE id = dup.id;
  END LOOP;
END
$$;

CREATE UNIQUE INDEX workspaces_tenant_name ON workspaces (tenant_id, lower(name));
