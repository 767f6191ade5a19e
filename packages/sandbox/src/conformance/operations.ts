// The documented operations of a set of description files, and the check of one request against the operation its
// method and path name: path template (and x-ms-paths query disambiguators), api-version, required query parameters
// and headers, and the JSON body against the body parameter's schema.
import { check } from './schema.js';
import { loadSpec, resolveRef, specPath } from './specs.js';

export interface Operation {
  /** The description file, relative to the specs folder. */
  file: string;
  template: string;
  method: string;
  op: any;
  /** Parameters of the path item and the operation, $refs resolved (each with the file it is in). */
  params: Array<{ p: any; file: string }>;
  /** The description's version (info.version): what `api-version` must be where the operation takes one. */
  version: string;
}

interface Template {
  file: string;
  template: string;
  re: RegExp;
  /** x-ms-paths: query parameters the template requires (`action=append`, or a bare name present). */
  query: Array<[string, string | undefined]>;
  item: any;
}

/** A request as the checks read it. */
export interface HttpRequest {
  method: string;
  /** The path with its query string, as sent. */
  path: string;
  headers: Record<string, string>;
  /** The parsed JSON body, when there was one. */
  json?: unknown;
  hasBody: boolean;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head'];

const escapeRegExp = (s: string) => s.replace(/[.$()*+?^|[\]\\]/g, '\\$&');

/** The operations of some description files, `prefix` being the path every request carries before the templates. */
export class OperationIndex {
  private templates: Template[] = [];

  constructor(
    readonly files: string[],
    readonly prefix = '',
  ) {
    for (const file of files) {
      const doc = loadSpec(file);
      for (const [key, item] of [...Object.entries(doc.paths ?? {}), ...Object.entries(doc['x-ms-paths'] ?? {})]) {
        const [template, q] = key.split('?') as [string, string | undefined];
        const query = (q ?? '')
          .split('&')
          .filter(Boolean)
          .map((pair) => pair.split('=') as [string, string | undefined]);
        const re = new RegExp(`^${escapeRegExp(template).replace(/\{[^}]+\}/g, (m) => (m === '{path}' ? '(.+)' : '([^/]+)'))}$`, 'i');
        this.templates.push({ file, template: key, re, query, item });
      }
    }
  }

  /** The operations whose template matches the path (method aside), most specific (most query constraints) first. */
  private candidates(pathname: string, query: URLSearchParams): Template[] {
    const has = (name: string, value?: string) =>
      [...query].some(([k, v]) => k.toLowerCase() === name.toLowerCase() && (value === undefined || v === value));
    const params = (t: Template) => (t.template.match(/\{/g) ?? []).length;
    return this.templates
      .filter((t) => t.re.test(pathname) && t.query.every(([k, v]) => has(k, v)))
      .sort((a, b) => b.query.length - a.query.length || params(a) - params(b));
  }

  /**
   * The documented operation a request names, or why none: `path` when no template has the path, `method` when the path
   * is documented for other methods only.
   */
  match(method: string, pathWithQuery: string): { operation: Operation } | { missing: 'path' | 'method'; methods?: string[] } {
    const url = new URL(pathWithQuery, 'http://x');
    // Each segment decoded on its own: an id holding an encoded slash (an export id) stays one segment.
    let pathname = url.pathname
      .split('/')
      .map((seg) => {
        try {
          return decodeURIComponent(seg).replaceAll('/', '%2F');
        } catch {
          return seg;
        }
      })
      .join('/');
    if (this.prefix) {
      if (!pathname.startsWith(this.prefix)) return { missing: 'path' };
      pathname = pathname.slice(this.prefix.length) || '/';
    }
    const found = this.candidates(pathname, url.searchParams);
    if (!found.length) return { missing: 'path' };
    const m = method.toLowerCase();
    const withMethod = found.filter((t) => t.item[m]);
    if (!withMethod.length)
      return {
        missing: 'method',
        methods: [...new Set(found.flatMap((t) => METHODS.filter((x) => t.item[x]).map((x) => x.toUpperCase())))],
      };
    // Several files (API versions) can describe the path: the one whose version the request names, else the newest.
    const asked = [...url.searchParams].find(([k]) => k.toLowerCase() === 'api-version')?.[1];
    const version = (t: Template) => String(loadSpec(t.file).info?.version ?? '');
    const best =
      withMethod.find((t) => asked && version(t) === asked) ??
      withMethod.find((t) => version(t) === withMethod.map(version).sort().at(-1))!;
    return { operation: this.operation(best, m) };
  }

  private operation(t: Template, method: string): Operation {
    const abs = specPath(t.file);
    const resolve = (p: any) => (p.$ref ? (({ schema, file }) => ({ p: schema, file }))(resolveRef(p.$ref, abs)) : { p, file: abs });
    const params = [...(t.item.parameters ?? []), ...(t.item[method].parameters ?? [])].map(resolve);
    return {
      file: t.file,
      template: t.template,
      method: method.toUpperCase(),
      op: t.item[method],
      params,
      version: String(loadSpec(t.file).info?.version ?? ''),
    };
  }
}

/** What is wrong with a request for its operation: one line per problem, a body problem starting with its JSON path. */
export function checkRequest(operation: Operation, req: HttpRequest): string[] {
  const problems: string[] = [];
  const url = new URL(req.path, 'http://x');
  const queryValue = (name: string) => [...url.searchParams].find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
  for (const { p, file } of operation.params) {
    if (p.in === 'query') {
      const v = queryValue(p.name);
      if (p.name === 'api-version') {
        if (v === undefined) problems.push(`query api-version: required (${operation.version})`);
        else if (v !== operation.version) problems.push(`query api-version: ${v} is not the described version ${operation.version}`);
      } else if (p.required && v === undefined) problems.push(`query ${p.name}: required`);
      else if (v !== undefined && p.enum && !p['x-ms-enum']?.modelAsString && !p.enum.includes(v))
        problems.push(`query ${p.name}: ${v} is not one of ${p.enum.join(', ')}`);
    } else if (p.in === 'header') {
      if (p.required && req.headers[p.name.toLowerCase()] === undefined) problems.push(`header ${p.name}: required`);
    } else if (p.in === 'body') {
      if (p.required && !req.hasBody) problems.push('body: required');
      // A body described as a file (format: file, as storage's append) is bytes of any kind: nothing to parse.
      else if (p.schema?.format === 'file' || p.schema?.format === 'binary') continue;
      else if (req.json !== undefined && p.schema) problems.push(...check(req.json, p.schema, file).map((e) => `body ${e}`));
      else if (
        req.hasBody &&
        req.json === undefined &&
        p.schema &&
        (operation.op.consumes ?? ['application/json']).every((c: string) => /json/.test(c))
      )
        problems.push('body: not JSON');
    }
  }
  return problems;
}
