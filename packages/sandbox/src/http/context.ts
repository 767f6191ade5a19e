import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { ServiceError } from './errors.js';

const MAX_BODY = 32 * 1024 * 1024;

/** What a handler answers: a status, headers and a JSON body (or raw text/bytes). */
export interface Reply {
  status: number;
  headers?: Record<string, string | number>;
  body?: unknown;
  raw?: string | Buffer;
  contentType?: string;
}

/** One request as the handlers see it. */
export class RequestContext {
  readonly url: URL;
  readonly method: string;
  readonly requestId = randomUUID();
  params: Record<string, string> = {};
  /** Object id of the authenticated caller, for the request log. */
  identity?: string;
  /** The statement the request carried (a KQL command or query), for the request log. */
  logText?: string;
  private bodyPromise?: Promise<Buffer>;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    private readonly base: string,
  ) {
    this.url = new URL(req.url ?? '/', base);
    this.method = (req.method ?? 'GET').toUpperCase();
  }

  /**
   * The scheme and authority the client addressed (its Host header, e.g. localhost or 127.0.0.1), so documents that
   * name this server (discovery, issuer, authority) name the address the caller used; the listening address otherwise.
   */
  get origin(): string {
    const host = this.header('host');
    const listening = new URL(this.base);
    return host && /^([A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/.test(host)
      ? `${listening.protocol}//${host}`
      : listening.origin;
  }

  /** Another server of the sandbox (its URL) as addressed by the host name this request used: localhost stays localhost. */
  sibling(url: string): string {
    const u = new URL(url);
    u.hostname = new URL(this.origin).hostname;
    return u.origin;
  }

  get path(): string {
    return this.url.pathname;
  }

  /** The path with its query string, as fault rules and the request log see it. */
  get pathWithQuery(): string {
    return this.url.pathname + this.url.search;
  }

  query(name: string): string | undefined {
    return this.url.searchParams.get(name) ?? undefined;
  }

  /** A query parameter matched case-insensitively (Azure services accept `API-Version`). */
  queryCi(name: string): string | undefined {
    const lower = name.toLowerCase();
    for (const [k, v] of this.url.searchParams) if (k.toLowerCase() === lower) return v;
    return undefined;
  }

  header(name: string): string | undefined {
    const v = this.req.headers[name.toLowerCase()];
    return Array.isArray(v) ? v[0] : v;
  }

  body(): Promise<Buffer> {
    this.bodyPromise ??= new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      this.req.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_BODY) {
          reject(new ServiceError(413, 'RequestEntityTooLarge', 'The request body is too large.'));
          this.req.destroy();
          return;
        }
        chunks.push(c);
      });
      this.req.on('end', () => resolve(Buffer.concat(chunks)));
      this.req.on('error', reject);
    });
    return this.bodyPromise;
  }

  async text(): Promise<string> {
    return (await this.body()).toString('utf8');
  }

  /** The JSON body; `invalid` builds the service's own error for a body that does not parse. */
  async json<T = any>(invalid: (detail: string) => ServiceError): Promise<T> {
    const text = await this.text();
    if (!text.trim()) throw invalid('The request body is empty.');
    try {
      return JSON.parse(text) as T;
    } catch (err) {
      throw invalid(`The request body is not valid JSON: ${(err as Error).message}`);
    }
  }

  /** A form-encoded body (the token endpoint). */
  async form(): Promise<URLSearchParams> {
    return new URLSearchParams(await this.text());
  }
}

/** A loopback server's URL under each loopback name a client may use for it (127.0.0.1, localhost, [::1]). */
export function loopbackAliases(url: string): string[] {
  const u = new URL(url);
  if (!/^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(u.hostname)) return [u.origin];
  return [...new Set([u.hostname, '127.0.0.1', 'localhost', '[::1]'])].map((h) => `${u.protocol}//${h}${u.port ? `:${u.port}` : ''}`);
}
