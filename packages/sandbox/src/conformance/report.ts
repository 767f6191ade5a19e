// The figures of a conformance run over a request log, and its mismatches grouped and counted.
import type { RequestLogEntry } from '../types.js';
import { validate, type Kind, type Verdict } from './validate.js';

export interface Mismatch {
  service: string;
  method: string;
  /** The path with ids, numbers and names in quotes generalised, so one defect counts once. */
  path: string;
  reason: string;
  count: number;
  /** One request as logged, and its problem as found. */
  example: { seq: number; path: string; problem: string; status: number };
}

export interface Figures {
  requests: number;
  byKind: Record<Kind, number>;
  /** Requests per backing service. */
  byService: Record<string, number>;
  /** Requests matched to a described operation or a reference rule, in percent of all requests. */
  matchedPct: number;
  /** Requests matched and without a problem (bodies and decoded definition parts valid), in percent of all. */
  validPct: number;
  definitionParts: { checked: number; invalid: number };
  mismatches: Mismatch[];
  /** Extensions and undescribed services, counted: listed, never passed silently. */
  notes: Array<{ kind: 'extension' | 'undescribed'; what: string; requests: string[]; count: number }>;
}

const GUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const generalPath = (service: string, method: string, path: string) =>
  service === 'sql'
    ? method
    : path
        .split('?')[0]!
        .replace(GUID, '{id}')
        .replace(/\/\d+(?=\/|$)/g, '/{n}')
        .replace(/\('[^']*'\)/g, "('{name}')")
        .replace(/\/[A-Za-z0-9%_=+-]{24,}(?=\/|$)/g, '/{id}');
const generalReason = (p: string) =>
  p
    .replace(GUID, '{id}')
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/\[\d+\]/g, '[i]')
    .replace(/\d+ bytes/, 'n bytes');
const pct = (n: number, of: number) => (of ? Math.round((n / of) * 1000) / 10 : 100);

/** Validates every entry and adds the verdicts up. */
export function conformance(entries: RequestLogEntry[]): {
  figures: Figures;
  verdicts: Array<{ entry: RequestLogEntry; verdict: Verdict }>;
} {
  const verdicts = entries.map((entry) => ({ entry, verdict: validate(entry) }));
  const byKind: Record<Kind, number> = { described: 0, reference: 0, extension: 0, undescribed: 0, unmatched: 0 };
  const groups = new Map<string, Mismatch>();
  const notes = new Map<string, Figures['notes'][number]>();
  const byService: Record<string, number> = {};
  let valid = 0;
  let parts = 0;
  let badParts = 0;
  for (const { entry: e, verdict: v } of verdicts) {
    byKind[v.kind]++;
    byService[e.service] = (byService[e.service] ?? 0) + 1;
    parts += v.parts;
    badParts += new Set(v.problems.filter((p) => p.startsWith('definition.parts[')).map((p) => p.split(' ')[0])).size;
    if ((v.kind === 'described' || v.kind === 'reference') && !v.problems.length) valid++;
    if (v.kind === 'extension' || v.kind === 'undescribed') {
      const n = notes.get(v.operation!) ?? { kind: v.kind, what: v.operation!, requests: [], count: 0 };
      n.count++;
      const req = `${e.method} ${generalPath(e.service, e.method, e.path)}`;
      if (!n.requests.includes(req)) n.requests.push(req);
      notes.set(v.operation!, n);
    }
    for (const problem of v.problems) {
      const path = generalPath(e.service, e.method, e.path);
      const reason = generalReason(problem);
      const key = `${e.service} ${e.method} ${path} ${reason}`;
      const g = groups.get(key) ?? {
        service: e.service,
        method: e.method,
        path,
        reason,
        count: 0,
        example: { seq: e.seq, path: e.service === 'sql' ? (e.text ?? '').slice(0, 160) : e.path, problem, status: e.status },
      };
      g.count++;
      groups.set(key, g);
    }
  }
  const figures: Figures = {
    requests: entries.length,
    byKind,
    byService,
    matchedPct: pct(byKind.described + byKind.reference, entries.length),
    validPct: pct(valid, entries.length),
    definitionParts: { checked: parts, invalid: badParts },
    mismatches: [...groups.values()].sort((a, b) => b.count - a.count || a.service.localeCompare(b.service)),
    notes: [...notes.values()],
  };
  return { figures, verdicts };
}

/** The figures as the gate prints them. */
export function formatFigures(f: Figures): string {
  const k = f.byKind;
  const lines = [
    `requests: ${f.requests}  (described operation ${k.described}, reference rule ${k.reference}, documented extension ${k.extension}, undescribed service ${k.undescribed}, unmatched ${k.unmatched})`,
    `by service: ${Object.entries(f.byService)
      .map(([s, n]) => `${s} ${n}`)
      .join(', ')}`,
    `matched to a documented operation: ${f.matchedPct} %`,
    `valid (parameters, headers, bodies, decoded definition parts, SQL dialect): ${f.validPct} %`,
    `definition parts decoded and checked: ${f.definitionParts.checked} (invalid ${f.definitionParts.invalid})`,
  ];
  for (const n of f.notes)
    lines.push(
      `${n.kind === 'extension' ? 'documented extension' : 'undescribed service'} (${n.count} requests): ${n.requests.join('; ')} — ${n.what}`,
    );
  lines.push(`mismatches: ${f.mismatches.reduce((s, m) => s + m.count, 0)} problems in ${f.mismatches.length} groups`);
  for (const m of f.mismatches) {
    lines.push(`  ${String(m.count).padStart(4)} × ${m.service} ${m.method} ${m.path}: ${m.reason}`);
    lines.push(`         e.g. #${m.example.seq} → ${m.example.status} ${m.example.path.slice(0, 160)}: ${m.example.problem.slice(0, 300)}`);
  }
  return lines.join('\n');
}
