import { randomBytes } from 'node:crypto';
import type { SandboxCore } from '../core.js';
import type { Reply, RequestContext } from '../http/context.js';
import { ServiceError } from '../http/errors.js';
import { Router } from '../http/router.js';
import type { ServiceModule } from '../http/service-server.js';

const VAULT_AUDIENCES = ['https://vault.azure.net', 'https://vault.azure.net/'];

interface Version {
  version: string;
  value: string;
  contentType?: string;
  tags: Record<string, string>;
  created: number;
  enabled: boolean;
}

const vaultError = (status: number, code: string, message: string) => new ServiceError(status, code, message);

/** A Key Vault-shaped secret store with its versions; `view()` shows names and versions, never values. */
export interface VaultModule extends ServiceModule {
  view(): Array<{ name: string; versions: string[] }>;
}

/** The secret vault: PUT (new version), GET current or a version, GET versions, DELETE; bearer tokens for https://vault.azure.net. */
export function vaultService(core: SandboxCore): VaultModule {
  const secrets = new Map<string, Version[]>();
  const router = new Router();

  const auth = async (ctx: RequestContext) => {
    const v = await core.tokens.verifyBearer(ctx.header('authorization'), VAULT_AUDIENCES);
    if (!v.ok) {
      const e = vaultError(
        401,
        'Unauthorized',
        v.reason === 'missing' ? 'AKV10000: Request is missing a Bearer or PoP token.' : `AKV10022: Invalid audience or token. ${v.detail}`,
      );
      (e.headers as Record<string, string>)['www-authenticate'] =
        `Bearer authorization="${ctx.sibling(core.urls.identity)}/${core.ids.tenantId}", resource="https://vault.azure.net"`;
      throw e;
    }
    ctx.identity = String(v.claims.oid ?? '');
  };
  const bundle = (ctx: RequestContext, name: string, v: Version, withValue = true) => ({
    ...(withValue ? { value: v.value } : {}),
    ...(v.contentType ? { contentType: v.contentType } : {}),
    id: `${ctx.url.origin}/secrets/${name}/${v.version}`,
    attributes: {
      enabled: v.enabled,
      created: Math.floor(v.created / 1000),
      updated: Math.floor(v.created / 1000),
      recoveryLevel: 'Recoverable+Purgeable',
      recoverableDays: 90,
    },
    tags: v.tags,
  });
  const versionsOf = (name: string) => {
    const list = secrets.get(name.toLowerCase());
    if (!list?.length)
      throw vaultError(
        404,
        'SecretNotFound',
        `A secret with (name/id) ${name} was not found in this key vault. If you recently deleted this secret you may be able to recover it using the correct recovery command.`,
      );
    return list;
  };

  router.put('/secrets/:name', async (ctx): Promise<Reply> => {
    await auth(ctx);
    const name = ctx.params.name!;
    if (!/^[0-9A-Za-z-]{1,127}$/.test(name))
      throw vaultError(400, 'BadParameter', 'The request URI contains an invalid name: secret names may contain only 0-9, a-z, A-Z and -.');
    const body = await ctx.json((d) => vaultError(400, 'BadParameter', d));
    if (typeof body?.value !== 'string') throw vaultError(400, 'BadParameter', 'Property value is required.');
    const v: Version = {
      version: randomBytes(16).toString('hex'),
      value: body.value,
      contentType: body.contentType,
      tags: body.tags ?? {},
      created: Date.now(),
      enabled: body.attributes?.enabled ?? true,
    };
    const list = secrets.get(name.toLowerCase()) ?? [];
    list.push(v);
    secrets.set(name.toLowerCase(), list);
    return { status: 200, body: bundle(ctx, name, v) };
  });
  router.get('/secrets/:name/versions', async (ctx): Promise<Reply> => {
    await auth(ctx);
    const name = ctx.params.name!;
    return { status: 200, body: { value: versionsOf(name).map((v) => bundle(ctx, name, v, false)), nextLink: null } };
  });
  router.get('/secrets/:name/:version', async (ctx): Promise<Reply> => {
    await auth(ctx);
    const name = ctx.params.name!;
    const v = versionsOf(name).find((x) => x.version === ctx.params.version!.toLowerCase());
    if (!v)
      throw vaultError(404, 'SecretNotFound', `A secret with (name/id) ${name}/${ctx.params.version} was not found in this key vault.`);
    return { status: 200, body: bundle(ctx, name, v) };
  });
  router.get('/secrets/:name', async (ctx): Promise<Reply> => {
    await auth(ctx);
    const list = versionsOf(ctx.params.name!);
    return { status: 200, body: bundle(ctx, ctx.params.name!, list[list.length - 1]!) };
  });
  router.delete('/secrets/:name', async (ctx): Promise<Reply> => {
    await auth(ctx);
    const name = ctx.params.name!;
    const list = versionsOf(name);
    secrets.delete(name.toLowerCase());
    const now = Math.floor(Date.now() / 1000);
    return {
      status: 200,
      body: {
        ...bundle(ctx, name, list[list.length - 1]!, false),
        recoveryId: `${ctx.url.origin}/deletedsecrets/${name}`,
        deletedDate: now,
        scheduledPurgeDate: now + 90 * 86_400,
      },
    };
  });

  return {
    name: 'identity', // no ServiceName for the vault yet; fault rules use service 'identity' and a /secrets path
    secretFields: ['value'], // a secret's value never reaches the request log
    router,
    errorReply: (err) => ({ status: err.status, body: { error: { code: err.code, message: err.message } }, headers: err.headers }),
    commonHeaders: (ctx) => ({ 'x-ms-request-id': ctx.requestId, 'x-ms-keyvault-service-version': '1.9.0.0' }),
    view: () => [...secrets].map(([name, list]) => ({ name, versions: list.map((v) => v.version) })),
  };
}
