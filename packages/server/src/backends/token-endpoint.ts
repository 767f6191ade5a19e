import { startBackingCall } from '../tracing/backing-call.js';

/** A token request at {auth_url}/{tenant}/oauth2/v2.0/token; the secret is used for this request only. */
export interface TokenRequest {
  authUrl: string;
  tenantId: string;
  clientId: string;
  scope: string;
  clientSecret?: string;
  refreshToken?: string;
}

export type TokenResult =
  | { ok: true; accessToken: string; expiresIn: number; ms: number }
  | { ok: false; status: number; error?: string; code?: string; description?: string; body: string; ms: number };

/** Acquires a token by client credentials or a refresh token with plain fetch (never the service's own token). */
export async function acquireToken(req: TokenRequest, timeoutMs = 15_000): Promise<TokenResult> {
  const form = new URLSearchParams({ client_id: req.clientId, scope: req.scope });
  if (req.refreshToken) {
    form.set('grant_type', 'refresh_token');
    form.set('refresh_token', req.refreshToken);
    if (req.clientSecret) form.set('client_secret', req.clientSecret);
  } else {
    form.set('grant_type', 'client_credentials');
    form.set('client_secret', req.clientSecret ?? '');
  }
  const started = Date.now();
  const url = `${req.authUrl.replace(/\/+$/, '')}/${encodeURIComponent(req.tenantId)}/oauth2/v2.0/token`;
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  const call = startBackingCall('identity', 'POST', url, headers);
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', headers, body: form, signal: AbortSignal.timeout(timeoutMs) });
    call.end(res);
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    call.end({ status: 0, code: e.cause?.code ?? e.name });
    return {
      ok: false,
      status: 0,
      code: e.cause?.code ?? e.name,
      body: '',
      description: `${new URL(url).host}: ${e.cause?.code ?? e.message}`,
      ms: Date.now() - started,
    };
  }
  const text = await res.text();
  const ms = Date.now() - started;
  let body: Record<string, any> = {};
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  if (res.ok && typeof body.access_token === 'string')
    return { ok: true, accessToken: body.access_token, expiresIn: Number(body.expires_in ?? 0), ms };
  const codes = Array.isArray(body.error_codes) ? body.error_codes : [];
  const code = codes.length ? `AADSTS${codes[0]}` : (/AADSTS\d+/.exec(String(body.error_description ?? ''))?.[0] ?? body.error);
  const description = typeof body.error_description === 'string' ? body.error_description.split(/\r?\n/)[0] : undefined;
  return { ok: false, status: res.status, error: body.error, code, description, body: text, ms };
}
