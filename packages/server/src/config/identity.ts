import { ConfigError, oneOf, type Section, text, type Values } from './setting.js';

/** The service's own credential. */
export const IDENTITY = {
  kind: oneOf('SVC_IDENTITY', ['managed', 'workload', 'client-secret', 'client-certificate'], {
    fallback: 'managed',
    meaning:
      "the service's credential: `managed` (system-assigned, or user-assigned with `AZURE_CLIENT_ID`), `workload`, `client-secret` (`AZURE_TENANT_ID`, `AZURE_CLIENT_ID`, `AZURE_CLIENT_SECRET`), `client-certificate` (`AZURE_CLIENT_CERTIFICATE_PATH`)",
  }),
  tenantId: text('AZURE_TENANT_ID', {
    meaning: "the service identity's directory tenant (`workload`, `client-secret`, `client-certificate`)",
  }),
  clientId: text('AZURE_CLIENT_ID', {
    meaning: "the service identity's client id: a user-assigned managed identity's, or the app registration's",
  }),
  clientSecret: text('AZURE_CLIENT_SECRET', { meaning: "the app registration's client secret (`client-secret`)" }),
  certificatePath: text('AZURE_CLIENT_CERTIFICATE_PATH', {
    meaning: "a PEM file with the app registration's certificate and private key (`client-certificate`)",
  }),
} satisfies Section;

/** The service's credential (SVC_IDENTITY and the AZURE_* settings it needs), for @azure/identity. */
export type ServiceIdentity =
  | { kind: 'managed'; clientId?: string }
  | { kind: 'workload'; tenantId?: string; clientId?: string }
  | { kind: 'client-secret'; tenantId: string; clientId: string; clientSecret: string }
  | { kind: 'client-certificate'; tenantId: string; clientId: string; certificatePath: string };

/** The service identity of the section's values; ConfigError when a kind lacks what it needs. */
export function serviceIdentity(v: Values<typeof IDENTITY>): ServiceIdentity {
  switch (v.kind) {
    case 'managed':
      return { kind: v.kind, clientId: v.clientId };
    case 'workload':
      return { kind: v.kind, tenantId: v.tenantId, clientId: v.clientId };
    case 'client-secret':
      if (!v.tenantId || !v.clientId || !v.clientSecret)
        throw new ConfigError('SVC_IDENTITY', 'client-secret needs AZURE_TENANT_ID, AZURE_CLIENT_ID and AZURE_CLIENT_SECRET');
      return { kind: v.kind, tenantId: v.tenantId, clientId: v.clientId, clientSecret: v.clientSecret };
    case 'client-certificate':
      if (!v.tenantId || !v.clientId || !v.certificatePath)
        throw new ConfigError(
          'SVC_IDENTITY',
          'client-certificate needs AZURE_TENANT_ID, AZURE_CLIENT_ID and AZURE_CLIENT_CERTIFICATE_PATH',
        );
      return { kind: v.kind, tenantId: v.tenantId, clientId: v.clientId, certificatePath: v.certificatePath };
  }
}
