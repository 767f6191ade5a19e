/** Exit codes scripts can branch on. */
export const EXIT = { ok: 0, problemFound: 1, usage: 2, refused: 3, unavailable: 4 } as const;

/** The API answered with an error envelope, or could not be reached. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
  get exitCode(): number {
    return this.status >= 400 && this.status < 500 ? EXIT.refused : EXIT.unavailable;
  }
}

/** A small client of /api/admin/identity over fetch, from SVC_BASE_URL and SVC_TOKEN. */
export class IdentityApi {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  static fromEnv(env: NodeJS.ProcessEnv): IdentityApi {
    const base = env.SVC_BASE_URL;
    const token = env.SVC_TOKEN;
    if (!base || !token) throw new ApiError(0, 'not_configured', 'Set SVC_BASE_URL and SVC_TOKEN (an admin-scoped svc_pat_ token)');
    return new IdentityApi(base.replace(/\/+$/, ''), token);
  }

  async call<T = any>(method: string, path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}/api/admin/identity${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.token}`,
          accept: 'application/json',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(120_000),
      });
    } catch (err) {
      const e = err as Error & { cause?: { code?: string } };
      throw new ApiError(0, 'unreachable', `${this.baseUrl}: ${e.cause?.code ?? e.message}`);
    }
    const text = await res.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ApiError(res.status, 'not_json', `HTTP ${res.status}: ${text.slice(0, 200)}`);
    }
    if (!res.ok || json.ok === false)
      throw new ApiError(res.status, json.error?.code ?? 'error', json.error?.message ?? `HTTP ${res.status}`, json.error?.hint);
    return json as T;
  }
}
