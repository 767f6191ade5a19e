import { type Section, text, url, type Values, WEB } from './setting.js';

/** Identity operations: the Entra tenant, the application-credential endpoint, the secret vault. */
export const IDENTITY_OPS = {
  tenantId: text('SVC_TENANT_ID', {
    meaning: 'the Entra tenant (identity probes, rotation checks; the sign-in tenant unless `SVC_OIDC_TENANT` is set)',
  }),
  graphUrl: url('SVC_GRAPH_URL', WEB, {
    shown: "the cloud's (none in the sandbox)",
    meaning: 'application-credential endpoint used by secret rotation',
  }),
  graphAudience: text('SVC_GRAPH_AUDIENCE', { shown: "the cloud's", meaning: 'token audience for the application-credential endpoint' }),
  vaultUrl: url('SVC_VAULT_URL', WEB, { meaning: 'secret-vault endpoint used by secret rotation' }),
  vaultAudience: text('SVC_VAULT_AUDIENCE', { shown: "the cloud's", meaning: 'token audience for the secret vault' }),
} satisfies Section;

export type IdentityOpsConfig = Values<typeof IDENTITY_OPS>;
