import type { SandboxCore } from '../core.js';
import type { FaultRule, Grant, RequestLogEntry, ServiceName } from '../types.js';
import { SERVICE_NAMES } from '../types.js';
import { checkSwitch, type SwitchName, type SwitchValues } from '../switches.js';
import { AUDIENCES, audienceFor } from '../identity/resources.js';
import { Directory } from '../identity/directory.js';
import { checkFaultRule } from './faults.js';
import type { SqlStateView } from '../sql/index.js';
import { AdminError, applyGrant } from './grants.js';
import type { InFlight } from './request-log.js';

/** Everything the state view holds: what tests read to prove there are no duplicates. */
export interface SandboxState {
  dataPlatform: ReturnType<SandboxCore['dataPlatform']['view']>;
  kql: ReturnType<SandboxCore['kql']['view']>;
  arm: ReturnType<SandboxCore['arm']['view']>;
  search: ReturnType<SandboxCore['search']['view']>;
  reporting: ReturnType<SandboxCore['reporting']['view']>;
  synapse: ReturnType<SandboxCore['synapse']['view']>;
  oneLake: { paths: ReturnType<SandboxCore['oneLake']['view']> };
  /** The TDS endpoint's databases: schemas, tables with row counts, views, constraints, users and their roles. */
  sql: SqlStateView;
  /** The lake's storage accounts: filesystems with their paths, and the data roles on each account. */
  lake: ReturnType<SandboxCore['lake']['view']>;
  /** The serverless SQL pool's databases (external data sources, file formats, external tables, views). */
  sqlServerless: SqlStateView;
  identity: { tenantId: string; principals: ReturnType<Directory['view']> };
  switches: SwitchValues;
}

/** The admin operations, in process (tests) and behind the HTTP admin API (/_sandbox). */
export class SandboxAdmin {
  constructor(private readonly core: SandboxCore) {}

  /** Adds a fault rule; answers its id. */
  async addFault(rule: FaultRule): Promise<{ id: string }> {
    const problem = checkFaultRule(rule);
    if (problem) throw new AdminError(problem);
    return this.core.faults.add(rule);
  }

  async removeFault(id: string): Promise<boolean> {
    return this.core.faults.remove(id);
  }

  async clearFaults(): Promise<void> {
    this.core.faults.clear();
  }

  async faults() {
    return this.core.faults.list();
  }

  /** Sets one service's added latency, or several at once. */
  async setLatency(
    service: ServiceName | Partial<Record<ServiceName, number>>,
    ms?: number,
  ): Promise<Partial<Record<ServiceName, number>>> {
    const changes = typeof service === 'string' ? { [service]: ms } : service;
    for (const [name, value] of Object.entries(changes)) {
      if (!SERVICE_NAMES.includes(name as ServiceName)) throw new AdminError(`unknown service '${name}'`);
      if (typeof value !== 'number' || !(value >= 0))
        throw new AdminError(`latency of ${name} must be a non-negative number of milliseconds`);
      this.core.latency[name as ServiceName] = value;
    }
    return { ...this.core.latency };
  }

  async latency(): Promise<Partial<Record<ServiceName, number>>> {
    return { ...this.core.latency };
  }

  /** The request log (optionally one service's, after a sequence number or time, of one trace, at most `limit` entries). */
  async requests(
    filter: { service?: ServiceName; since?: string | number; traceId?: string; limit?: number } = {},
  ): Promise<RequestLogEntry[]> {
    return this.core.log.list(filter);
  }

  /** Requests in flight per service now, and the most at once since the request log was last cleared. */
  async inFlight(): Promise<InFlight> {
    return this.core.log.inFlight();
  }

  async clearRequests(): Promise<void> {
    this.core.log.clear();
  }

  async state(): Promise<SandboxState> {
    const c = this.core;
    return {
      dataPlatform: c.dataPlatform.view(),
      kql: (c.arm.settle(), c.kql.view()),
      arm: c.arm.view(),
      search: c.search.view(),
      reporting: (c.reporting.settle(), c.reporting.view()),
      synapse: c.synapse.view(),
      oneLake: { paths: c.oneLake.view() },
      sql: c.sql?.view() ?? { databases: [] },
      lake: c.lake.view(),
      sqlServerless: c.sqlServerless?.view() ?? { databases: [] },
      identity: { tenantId: c.ids.tenantId, principals: c.directory.view() },
      switches: { ...c.switches },
    };
  }

  /** Back to the seeded state (stores, grants, switches, faults, latency, request log). */
  async reset(): Promise<void> {
    this.core.reset();
  }

  /** Removes a data-platform connection (by id or display name), as a tenant admin deleting it; answers whether one was removed. */
  async removeConnection(idOrName: string): Promise<boolean> {
    const wanted = idOrName.toLowerCase();
    const found = [...this.core.dataPlatform.connections.values()].find((c) => c.id === wanted || c.displayName.toLowerCase() === wanted);
    return found ? this.core.dataPlatform.connections.delete(found.id) : false;
  }

  async grant(g: Grant): Promise<{ changed: boolean }> {
    return applyGrant(this.core, g, true);
  }

  async revoke(g: Grant): Promise<{ changed: boolean }> {
    return applyGrant(this.core, g, false);
  }

  async setSwitch<K extends SwitchName>(name: K, value: SwitchValues[K]): Promise<SwitchValues> {
    const problem = checkSwitch(this.core.switches, name, value);
    if (problem) throw new AdminError(problem);
    this.core.switches[name] = value;
    return { ...this.core.switches };
  }

  async switches(): Promise<SwitchValues> {
    return { ...this.core.switches };
  }

  /**
   * A token for any principal of the directory and an audience, minted as Entra would (tests use it to call as a
   * user or another service principal without running a sign-in flow).
   */
  async token(opts: { principal?: string; audience: string; scopes?: string[] }): Promise<string> {
    const p = opts.principal ? this.core.directory.find(opts.principal) : this.core.directory.serviceIdentity;
    if (!p) throw new AdminError(`unknown principal '${opts.principal}'`, 404);
    const named: Record<string, string> = {
      dataPlatform: AUDIENCES.dataPlatform[0],
      arm: AUDIENCES.arm[0],
      search: AUDIENCES.search[0],
      storage: AUDIENCES.storage[0],
      synapse: AUDIENCES.synapse[0],
      kql: this.core.urls.kql,
    };
    const audience = named[opts.audience] ?? audienceFor(opts.audience, this.core.extraResources()) ?? opts.audience;
    const t = Directory.isApp(p)
      ? await this.core.appToken(p, audience, p.kind === 'managedIdentity' ? 'managed' : 'secret')
      : await this.core.userToken(p, this.core.ids.consoleApp.appId, audience, opts.scopes ?? ['user_impersonation']);
    return t.token;
  }
}
