-- The user principal name the identity provider gave a signed-in user (upn, else preferred_username): the effective
-- identity of the user's exports of reports over a semantic model (issue 23). Null for users never signed in by OIDC.
ALTER TABLE users ADD COLUMN upn text;
