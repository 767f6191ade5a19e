-- Token lineage: a token minted with another token (directly, or through a console session opened with it) records
-- that parent. It never outlives the parent and is revoked with it, transitively.
ALTER TABLE api_tokens ADD COLUMN parent_id text REFERENCES api_tokens(id) ON DELETE CASCADE;
CREATE INDEX api_tokens_parent ON api_tokens (parent_id) WHERE parent_id IS NOT NULL;
