-- Role assignments join the change feed (004): every committed write to them notifies 'svc_table_changed', so each
-- process sharing the store drops the workspace roles it cached (AccessService) as soon as a role changes anywhere.
CREATE TRIGGER workspace_role_assignments_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON workspace_role_assignments
  FOR EACH STATEMENT EXECUTE FUNCTION svc_table_changed();
