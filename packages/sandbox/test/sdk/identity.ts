// Run by sdk-identity.test.ts in its own process (NODE_EXTRA_CA_CERTS names the sandbox's test CA).
import { ClientSecretCredential, ManagedIdentityCredential } from '@azure/identity';
import { ids, report, urls } from './outcome.js';

const sp = ids.servicePrincipals[0];
const clientSecret = (authorityHost: string, secret: string) =>
  // No instance discovery: it asks login.microsoftonline.com about the authority (as for any private cloud).
  new ClientSecretCredential(ids.tenantId, sp.appId, secret, { authorityHost, disableInstanceDiscovery: true });

await report({
  clientSecret: async () => (await clientSecret(urls.identity, sp.secret).getToken('https://search.azure.com/.default')).token,
  clientSecretAtLocalhost: async () =>
    (await clientSecret(urls.identity.replace('127.0.0.1', 'localhost'), sp.secret).getToken('https://management.azure.com/.default'))
      .token,
  managedIdentity: async () => (await new ManagedIdentityCredential().getToken('https://search.azure.com/.default')).token,
  wrongSecret: () => clientSecret(urls.identity, `${sp.secret}-wrong`).getToken('https://search.azure.com/.default'),
});
