-- A change feed for in-process read caches: every committed write to a watched table notifies
-- 'svc_table_changed' with the table's name, so each process sharing the store can drop what it cached.
-- Statement-level, so a bulk write is one notification; PostgreSQL folds duplicates within a transaction.
CREATE OR REPLACE FUNCTION svc_table_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('svc_table_changed', TG_TABLE_NAME);
  RETURN NULL;
END
$$;

CREATE TRIGGER items_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON items
  FOR EACH STATEMENT EXECUTE FUNCTION svc_table_changed();
CREATE TRIGGER workspaces_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON workspaces
  FOR EACH STATEMENT EXECUTE FUNCTION svc_table_changed();
