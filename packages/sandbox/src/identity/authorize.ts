import type { SandboxCore } from '../core.js';
import type { Reply, RequestContext } from '../http/context.js';
import type { ServiceError } from '../http/errors.js';
import { aadstsNumber, entraError } from './entra-errors.js';
import { checkTenant } from './token-endpoint.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const PARAMS = [
  'client_id',
  'response_type',
  'redirect_uri',
  'scope',
  'state',
  'nonce',
  'code_challenge',
  'code_challenge_method',
  'response_mode',
  'prompt',
  'login_hint',
];

const page = (title: string, body: string): Reply => ({
  status: 200,
  contentType: 'text/html; charset=utf-8',
  raw: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title><style>body{font-family:system-ui,sans-serif;background:#f2f2f2;margin:0}main{max-width:440px;margin:8vh auto;background:#fff;padding:32px 40px;box-shadow:0 2px 6px rgba(0,0,0,.2)}h1{font-size:24px;font-weight:600}button{display:block;width:100%;text-align:left;padding:12px;margin:8px 0;border:1px solid #8a8886;background:#fff;cursor:pointer;font-size:15px}button:hover{background:#f3f2f1}small{color:#605e5c;display:block}.err{color:#a4262c}</style></head><body><main>${body}</main></body></html>`,
});

/** An error Entra shows on its own page (bad client or redirect URI: nothing is sent to the app). */
function errorPage(err: ServiceError): Reply {
  return {
    ...page('Sign in', `<h1>Sorry, but we're having trouble signing you in.</h1><p class="err" id="error">${esc(err.message)}</p>`),
    status: 400,
  };
}

function isLoopback(uri: string): boolean {
  try {
    const u = new URL(uri);
    return u.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname);
  } catch {
    return false;
  }
}

/** Sends the outcome to the app: query redirect, or an auto-submitted form for response_mode=form_post. */
function respond(p: URLSearchParams, values: Record<string, string>): Reply {
  const redirect = p.get('redirect_uri')!;
  const all = { ...values, ...(p.get('state') ? { state: p.get('state')! } : {}) };
  if (p.get('response_mode') === 'form_post') {
    const inputs = Object.entries(all)
      .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
      .join('');
    return page(
      'Working…',
      `<form method="post" action="${esc(redirect)}">${inputs}<noscript><button>Continue</button></noscript></form><script>document.forms[0].submit()</script>`,
    );
  }
  const url = new URL(redirect);
  for (const [k, v] of Object.entries(all)) url.searchParams.set(k, v);
  return { status: 302, headers: { location: url.toString(), 'cache-control': 'no-store' } };
}

function redirectError(p: URLSearchParams, err: ServiceError, error?: string): Reply {
  const code = aadstsNumber(err.code);
  return respond(p, {
    error: error ?? String(err.extra.error ?? 'invalid_request'),
    error_description: err.message,
    ...(code ? { error_codes: String(code) } : {}),
  });
}

/** Validates the request's app and redirect URI; returns an error page reply when they are wrong. */
function checkRequest(core: SandboxCore, p: URLSearchParams): Reply | undefined {
  const clientId = p.get('client_id');
  const app = clientId ? core.directory.byAppId(clientId) : undefined;
  if (!clientId) return errorPage(entraError(900144, { param: 'client_id' }));
  if (!app || app.kind !== 'application') return errorPage(entraError(700016, { clientId, tenantName: core.ids.tenantDomain }));
  const redirect = p.get('redirect_uri') ?? '';
  if (!(app.redirectUris ?? []).includes(redirect) && !isLoopback(redirect))
    return errorPage(entraError(50011, { redirectUri: redirect, clientId }));
  if (p.get('response_type') !== 'code')
    return respond(p, {
      error: 'unsupported_response_type',
      error_description: `AADSTS70005: response_type '${p.get('response_type') ?? ''}' is not enabled for the application.`,
    });
  if (!p.get('scope')) return redirectError(p, entraError(900144, { param: 'scope' }));
  const method = p.get('code_challenge_method');
  if (method && !['S256', 'plain'].includes(method)) return redirectError(p, entraError(9002313));
  return undefined;
}

/** Signs a user in: the switches and the directory decide whether Entra refuses (MFA, assignment, conditional access). */
function signIn(core: SandboxCore, p: URLSearchParams, userRef: string | null): Reply {
  const user = core.directory.find(userRef ?? undefined);
  if (!user || (user.kind !== 'user' && user.kind !== 'guest')) return redirectError(p, entraError(50058), 'login_required');
  const app = core.directory.byAppId(p.get('client_id')!)!;
  const vars = {
    clientId: app.appId,
    appName: app.displayName,
    user: user.upn,
    resource: p.get('scope') ?? undefined,
    tenantName: core.ids.tenantDomain,
  };
  const forced = core.forcedFailure(user);
  if (forced) {
    const n = aadstsNumber(forced.code) ?? 53003;
    return redirectError(
      p,
      entraError(n, vars),
      n === 50076 ? 'interaction_required' : n === 50105 || n === 53003 ? 'access_denied' : undefined,
    );
  }
  if (user.mfaRequired) return redirectError(p, entraError(50076, vars), 'interaction_required');
  if (app.assignmentRequired && !app.assignedUsers?.includes(user.objectId))
    return redirectError(p, entraError(50105, vars), 'access_denied');
  const code = core.identity.issueCode({
    clientId: app.appId!,
    redirectUri: p.get('redirect_uri')!,
    scope: p.get('scope')!,
    userId: user.objectId,
    nonce: p.get('nonce') ?? undefined,
    codeChallenge: p.get('code_challenge') ?? undefined,
    codeChallengeMethod: p.get('code_challenge_method') ?? (p.get('code_challenge') ? 'plain' : undefined),
  });
  return respond(p, { code, session_state: user.objectId });
}

/** GET: the sign-in page listing the sandbox's users (or a silent sign-in with prompt=none). */
export function authorizePage(core: SandboxCore, ctx: RequestContext): Reply {
  checkTenant(core, ctx.params.tenant!);
  const p = ctx.url.searchParams;
  const bad = checkRequest(core, p);
  if (bad) return bad;
  if (p.get('prompt') === 'none') return signIn(core, p, p.get('login_hint'));
  const hidden = PARAMS.filter((k) => p.get(k) !== null)
    .map((k) => `<input type="hidden" name="${k}" value="${esc(p.get(k)!)}">`)
    .join('');
  const hint = p.get('login_hint')?.toLowerCase();
  const buttons = core.directory
    .users()
    .map(
      (u) =>
        `<button name="user" value="${esc(u.objectId)}" data-upn="${esc(u.upn!)}"${hint === u.upn?.toLowerCase() ? ' autofocus' : ''}>${esc(u.displayName)}<small>${esc(u.upn!)}${u.kind === 'guest' ? ' (guest)' : ''}${u.mfaRequired ? ' · MFA required' : ''}</small></button>`,
    )
    .join('');
  const app = core.directory.byAppId(p.get('client_id')!)!;
  return page(
    'Sign in to your account',
    `<h1>Pick an account</h1><p>to continue to <b>${esc(app.displayName)}</b> (sandbox identity provider, tenant ${esc(core.ids.tenantDomain)})</p><form method="post">${hidden}${buttons}</form>`,
  );
}

/** POST: the chosen account; answers the app's redirect URI with a code or an error. */
export async function authorizeSubmit(core: SandboxCore, ctx: RequestContext): Promise<Reply> {
  checkTenant(core, ctx.params.tenant!);
  const form = await ctx.form();
  const p = new URLSearchParams();
  for (const k of PARAMS) if (form.get(k) !== null) p.set(k, form.get(k)!);
  const bad = checkRequest(core, p);
  if (bad) return bad;
  return signIn(core, p, form.get('user') ?? form.get('login_hint'));
}
