-- Console sign-ins through the identity provider that have started and not yet come back (state, PKCE verifier, nonce).
-- IF NOT EXISTS: an early run of this change applied it as 004_oidc_sign_in.sql on shared development databases.
CREATE TABLE IF NOT EXISTS oidc_logins (
  state_hash     text PRIMARY KEY,
  code_verifier  text NOT NULL,
  nonce          text NOT NULL,
  redirect_uri   text NOT NULL,
  return_to      text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  expires_at     timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS oidc_logins_expires ON oidc_logins (expires_at);
