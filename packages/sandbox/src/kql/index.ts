import type { SandboxCore } from '../core.js';
import type { RequestContext } from '../http/context.js';
import { ServiceError } from '../http/errors.js';
import { Router } from '../http/router.js';
import type { ServiceModule } from '../http/service-server.js';
import { callerFrom, type Caller } from '../identity/caller.js';
import { runCommand } from './commands.js';
import { activityIdOf, badRequest, clientRequestIdOf, kustoError, kustoErrorReply, kustoFaultCode } from './errors.js';
import { v1Command, v1Query, v2Query } from './frames.js';
import { runQuery } from './query.js';
import { executeScript, isDatabaseScript } from './script.js';

async function kqlCaller(core: SandboxCore, ctx: RequestContext): Promise<Caller> {
  const v = await core.tokens.verifyBearer(ctx.header('authorization'), core.kqlAudiences());
  if (!v.ok) {
    const detail =
      v.reason === 'missing'
        ? 'The request has no Authorization header with a bearer token.'
        : v.reason === 'audience'
          ? `${v.detail} Accepted audiences: ${core.kqlAudiences().join(', ')}.`
          : v.detail;
    const err = kustoError(401, 'Unauthorized', 'Kusto.Common.Svc.Exceptions.UnauthorizedOperationException', detail);
    throw new ServiceError(err.status, err.code, err.message, err.extra, {
      'www-authenticate': `Bearer authorization_uri="${core.urls.identity}/${core.ids.tenantId}", realm="${core.urls.kql}"`,
    });
  }
  const caller = callerFrom(v.claims, v.audience, core.directory);
  ctx.identity = caller.objectId;
  return caller;
}

/** The request body {db, csl, properties}. */
async function request(ctx: RequestContext): Promise<{ db?: string; csl: string }> {
  const body = await ctx.json((d) => badRequest(`The request body is not valid JSON: ${d}`));
  if (typeof body?.csl !== 'string' || !body.csl.trim())
    throw badRequest("The request has no 'csl' property with the query or command text.");
  ctx.logText = body.csl;
  return { db: typeof body.db === 'string' && body.db ? body.db : undefined, csl: body.csl };
}

/** The KQL cluster's data plane: /v1/rest/mgmt, /v2/rest/query, /v1/rest/query and /v1/rest/auth/metadata. */
export function kqlService(core: SandboxCore): ServiceModule {
  const router = new Router();
  // The login endpoint is the sandbox's identity provider under the host name the caller used for the cluster.
  router.get('/v1/rest/auth/metadata', (ctx) => ({
    status: 200,
    body: {
      AzureAD: {
        LoginEndpoint: ctx.sibling(core.urls.identity),
        LoginMfaRequired: false,
        KustoClientAppId: 'db662dc1-0cfe-4e1c-a843-19a68e65be58',
        KustoClientRedirectUri: 'https://microsoft/kustoclient',
        KustoServiceResourceId: 'https://kusto.kusto.windows.net',
        FirstPartyAuthorityUrl: `${ctx.sibling(core.urls.identity)}/f8cdef31-a31e-4b4a-93e4-5f571e91255a`,
      },
      dSTS: {
        CloudEndpointSuffix: 'windows.net',
        DstsRealm: 'realm://dsts.core.windows.net',
        DstsInstance: 'prod-dsts.dsts.core.windows.net',
        KustoDnsHostName: new URL(ctx.origin).host,
        ServiceName: 'kusto',
      },
    },
  }));
  router.post('/v1/rest/mgmt', async (ctx) => {
    const caller = await kqlCaller(core, ctx);
    const { db, csl } = await request(ctx);
    if (!csl.trim().startsWith('.'))
      throw badRequest(
        'Syntax error: the management endpoint accepts only control commands (text starting with a dot); send queries to /v2/rest/query.',
        'Kusto.Data.Exceptions.SyntaxException',
      );
    const run = (text: string) => runCommand(core.kql, caller, db, text);
    return { status: 200, body: v1Command(isDatabaseScript(csl) ? executeScript(core.kql, caller, db, csl, run) : run(csl)) };
  });
  for (const version of ['v1', 'v2'] as const) {
    router.post(`/${version}/rest/query`, async (ctx) => {
      const caller = await kqlCaller(core, ctx);
      const { db, csl } = await request(ctx);
      if (csl.trim().startsWith('.'))
        throw badRequest(
          'Syntax error: control commands (text starting with a dot) must be sent to /v1/rest/mgmt.',
          'Kusto.Data.Exceptions.SyntaxException',
        );
      const database = core.kql.requireDatabase(db);
      core.kql.authorize(caller, database, 'read');
      const result = runQuery(csl, core.kql.host(database));
      const crid = clientRequestIdOf(ctx);
      return { status: 200, body: version === 'v2' ? v2Query(result, activityIdOf(ctx), crid) : v1Query(result, activityIdOf(ctx), crid) };
    });
  }
  return {
    name: 'kql',
    router,
    errorReply: kustoErrorReply,
    faultCode: kustoFaultCode,
    commonHeaders: (ctx) => ({ 'x-ms-activity-id': activityIdOf(ctx), 'x-ms-client-request-id': clientRequestIdOf(ctx) }),
    notFound: (ctx) =>
      kustoError(
        404,
        'NotFound',
        'Kusto.Common.Svc.Exceptions.EndpointNotFoundException',
        `The endpoint ${ctx.path} does not exist on this cluster.`,
      ),
  };
}
