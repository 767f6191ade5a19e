import assert from 'node:assert/strict';

/** The `name=value` pair of a Set-Cookie header of the answer, ready for a Cookie header. */
export const cookieOf = (r: Response, name: string): string | undefined =>
  r.headers
    .getSetCookie()
    .find((c) => c.startsWith(`${name}=`))
    ?.split(';')[0];

/**
 * Starts a console sign-in at the service and picks `user` (the alias before the @ of its sign-in name) on the sandbox
 * identity provider's page, as a browser would. Answers the provider's callback address and the state cookie.
 */
export async function pickOnProvider(base: string, user: string): Promise<{ callback: string; stateCookie: string }> {
  const login = await fetch(`${base}/api/auth/login?returnTo=%2F`, { redirect: 'manual' });
  assert.equal(login.status, 302, await login.text());
  const stateCookie = cookieOf(login, 'svc_oidc_state');
  assert.ok(stateCookie, 'the state cookie is set');
  const authorize = new URL(login.headers.get('location') ?? '');
  const html = await (await fetch(authorize)).text();
  const form = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    form.set(
      m[1] ?? '',
      (m[2] ?? '').replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c))),
    );
  const account = html.match(new RegExp(`<button name="user" value="([^"]+)" data-upn="${user}@`))?.[1];
  assert.ok(account, `the sign-in page offers ${user}`);
  form.set('user', account);
  const picked = await fetch(authorize, { method: 'POST', body: form, redirect: 'manual' });
  assert.equal(picked.status, 302, await picked.text());
  return { callback: picked.headers.get('location') ?? '', stateCookie };
}

/** Signs `user` in to the console through the sandbox identity provider; answers the session's Cookie header value. */
export async function signIn(base: string, user: string): Promise<string> {
  const { callback, stateCookie } = await pickOnProvider(base, user);
  const back = await fetch(callback, { redirect: 'manual', headers: { cookie: stateCookie } });
  assert.equal(back.status, 302, await back.text());
  const session = cookieOf(back, 'svc_session');
  assert.ok(session, `${user} has a session`);
  return session;
}
