// The backing calls a live item type declares: what its provisioner calls, and what the app page's plan text says.

/** The backing services a provisioner calls (the sandbox's request log names the same services). */
export const CALL_SERVICES = ['data-platform', 'onelake', 'arm', 'kql', 'search', 'sql', 'reporting', 'synapse', 'storage'] as const;
export type CallService = (typeof CALL_SERVICES)[number];

/** When a call is made, if not on every run; the text follows the call in the plan. */
export const CALL_CONDITIONS = {
  /** the live resource does not exist yet (the step reports created) */
  new: 'if new',
  /** the live resource exists already (the step reports exists) */
  existing: 'if it exists',
  /** a long-running operation answered 202 and is followed to its end */
  accepted: 'while a 202 runs',
  /** the resource is not ready yet (a publishing import) */
  pending: 'until ready',
  /** the table holds no rows yet */
  unseeded: 'if the table is empty',
  /** the schema is neither in the database nor in the content's DDL */
  missing: 'if missing',
  /** what exists differs from the content (a view whose definition changed) */
  changed: 'if changed',
  /** another install published the same name meanwhile */
  conflict: 'on a name conflict',
  /** the step its resource lives under (a queryset's database) did not report it in this job */
  unreported: "unless its parent's step reported it",
  /** the step ran alone under its resource's lock (see provisioning/live-lock.ts) */
  alone: 'when run alone',
  /** the live resource exists already and the step ran alone */
  existingAlone: 'if it exists, when run alone',
  /** the step ran beside other installs of its resource (the lock's shared mode), where it reads before it writes */
  beside: 'beside other installs',
} as const;
export type CallCondition = keyof typeof CALL_CONDITIONS;

/** The methods of the calls: HTTP's, and the T-SQL endpoint's sign-in and batch. */
export const CALL_METHODS = ['GET', 'PUT', 'POST', 'PATCH', 'DELETE', 'LOGIN', 'BATCH'] as const;
export type CallMethod = (typeof CALL_METHODS)[number];

/**
 * One backing call a provisioner makes. `path` is relative to the service's address (the data platform API URL, the
 * reporting API host, the search service, the cluster, OneLake, the T-SQL database), with `{name}` standing for one
 * path segment or query value and a final `{name*}` for the rest; `{ws}` is the platform workspace and `{id}` the
 * item's own live id. Query parameters the path names are sent (others may be added, such as a continuation token).
 */
export interface PlannedCall {
  service: CallService;
  method: CallMethod;
  path: string;
  /** What the call carries when the path does not say it: a KQL command, a T-SQL statement. */
  command?: string;
  /** How many times the content makes it be called (×n); once when absent. */
  times?: number;
  /** When it is made, if not on every run. */
  when?: CallCondition;
  /** Made once per job however many of its items name it: a list the job's steps share (the items of a type, the connections). */
  once?: boolean;
}

/** How the plan names each service's address before a path (the data platform's paths stand alone). */
const ROOT: Record<CallService, string> = {
  'data-platform': '',
  onelake: '{onelake}',
  arm: '{arm}',
  kql: '{cluster}',
  search: '{search}',
  sql: '',
  reporting: '{reporting}',
  synapse: '{synapse}',
  storage: '{lake}',
};

/** One call as the plan shows it: `PUT {search}/indexes/faq ×2 if new`. */
export function callText(c: PlannedCall): string {
  const what =
    c.service === 'sql'
      ? c.method === 'LOGIN'
        ? `T-SQL sign-in to ${c.path.slice(1)}`
        : `T-SQL ${c.command ?? 'batch'}`
      : `${c.method} ${ROOT[c.service]}${c.path}${c.command ? ` ${c.command}` : ''}`;
  return `${what}${c.times !== undefined && c.times !== 1 ? ` ×${c.times}` : ''}${c.when ? ` ${CALL_CONDITIONS[c.when]}` : ''}${c.once ? ' once per job' : ''}`;
}

/** The plan text of a live item: its calls in the order they are made. */
export function planText(calls: readonly PlannedCall[]): string {
  return calls.map(callText).join('; ');
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A template (path or query value) as a regular expression; `bound` fixes some placeholders' values. */
function templateRe(template: string, bound: Readonly<Record<string, string>>, rest: boolean): string {
  return template
    .split(/(\{[a-z]+\*?\})/i)
    .map((part) => {
      const p = /^\{([a-z]+)(\*?)\}$/i.exec(part);
      if (!p) return escapeRegExp(part);
      if (bound[p[1]!] !== undefined) return escapeRegExp(bound[p[1]!]!);
      return p[2] && rest ? '.+' : '[^/]+';
    })
    .join('');
}

/**
 * True when a request (method and path with query, as a service received it, relative to the service's address)
 * is this call: the path has the template's shape with `bound` placeholders at their values, and the query holds the
 * template's parameters. Path segments and query values are compared decoded.
 */
export function callMatches(
  c: PlannedCall,
  request: { method: string; path: string },
  bound: Readonly<Record<string, string>> = {},
): boolean {
  if (request.method.toUpperCase() !== c.method) return false;
  const [tPath, tQuery] = splitQuery(c.path);
  const [rPath, rQuery] = splitQuery(request.path);
  const decoded = c.service === 'sql' ? rPath : rPath.split('/').map(safeDecode).join('/');
  if (!new RegExp(`^${templateRe(tPath, bound, true)}$`, 's').test(decoded)) return false;
  const got = new URLSearchParams(rQuery);
  for (const [name, value] of new URLSearchParams(tQuery)) {
    const actual = got.get(name);
    if (actual === null || !new RegExp(`^${templateRe(value, bound, false)}$`).test(actual)) return false;
  }
  return true;
}

function splitQuery(path: string): [string, string] {
  const q = path.indexOf('?');
  return q < 0 ? [path, ''] : [path.slice(0, q), path.slice(q + 1)];
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
