import type { FaultRule, ServiceName } from '../types.js';
import { SERVICE_NAMES } from '../types.js';
import type { IdSource } from '../ids.js';

interface ActiveRule extends FaultRule {
  id: string;
  regex?: RegExp;
  remaining?: number;
  hits: number;
}

/** Validates a rule from the admin API; returns a message naming the bad field, or undefined. */
export function checkFaultRule(rule: unknown): string | undefined {
  const r = rule as Partial<FaultRule> | null;
  if (!r || typeof r !== 'object') return 'the fault rule must be an object';
  if (!r.service || !SERVICE_NAMES.includes(r.service)) return `service must be one of ${SERVICE_NAMES.join(', ')}`;
  if (r.path !== undefined) {
    try {
      new RegExp(r.path);
    } catch {
      return `path is not a valid regular expression: ${r.path}`;
    }
  }
  if (r.status !== undefined && (!Number.isInteger(r.status) || r.status < 100 || r.status > 599))
    return 'status must be an HTTP status code';
  if (r.probability !== undefined && !(r.probability >= 0 && r.probability <= 1)) return 'probability must be between 0 and 1';
  if (r.count !== undefined && !(Number.isInteger(r.count) && r.count > 0)) return 'count must be a positive integer';
  if (r.delayMs !== undefined && !(r.delayMs >= 0)) return 'delayMs must be a non-negative number';
  if (r.service === 'sql' || r.service === 'sqlServerless') {
    if (r.method !== undefined && !['LOGIN', 'BATCH'].includes(String(r.method).toUpperCase()))
      return 'method of a sql fault must be LOGIN or BATCH';
    if (r.errorCode !== undefined && !/^\d{1,6}$/.test(String(r.errorCode)))
      return 'errorCode of a sql fault must be a SQL error number (for example 229 or 40613)';
    if (r.errorCode === undefined && !r.reset && r.delayMs === undefined)
      return 'a sql fault needs errorCode (a SQL error number), reset or delayMs';
    return undefined;
  }
  if (r.status === undefined && !r.reset && r.delayMs === undefined) return 'a fault needs status, reset or delayMs';
  return undefined;
}

/** Fault rules applied at run time: status answers, connection resets and delays. */
export class Faults {
  private rules: ActiveRule[] = [];

  constructor(private readonly ids: IdSource) {}

  add(rule: FaultRule): { id: string } {
    const id = this.ids.next('fault');
    this.rules.push({ ...rule, id, regex: rule.path ? new RegExp(rule.path) : undefined, remaining: rule.count, hits: 0 });
    return { id };
  }

  remove(id: string): boolean {
    const before = this.rules.length;
    this.rules = this.rules.filter((r) => r.id !== id);
    return this.rules.length !== before;
  }

  clear(): void {
    this.rules = [];
  }

  list(): Array<FaultRule & { id: string; remaining?: number; hits: number }> {
    return this.rules.map(({ regex: _regex, ...r }) => ({ ...r }));
  }

  /** The first rule that applies to this request, counting it against the rule's budget. */
  match(service: ServiceName, method: string, path: string): (FaultRule & { id: string }) | undefined {
    for (const r of this.rules) {
      if (r.service !== service) continue;
      if (r.method && r.method.toUpperCase() !== method) continue;
      if (r.regex && !r.regex.test(path)) continue;
      if (r.remaining !== undefined && r.remaining <= 0) continue;
      if (r.probability !== undefined && this.ids.random() >= r.probability) continue;
      if (r.remaining !== undefined) r.remaining--;
      r.hits++;
      return r;
    }
    return undefined;
  }
}
