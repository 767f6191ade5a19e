import type { SandboxOptions, SandboxUrls, ServiceName } from './types.js';
import { IdSource, makeIds, type SandboxIds } from './ids.js';
import { RequestLog } from './admin/request-log.js';
import { Faults } from './admin/faults.js';
import { defaultSwitches, type SwitchValues } from './switches.js';
import { Directory, type Principal } from './identity/directory.js';
import { TokenIssuer, signingKeyFor } from './identity/tokens.js';
import { IdentityState } from './identity/state.js';
import { PlatformStore } from './data-platform/store.js';
import { ArmStore } from './arm/store.js';
import { KqlEngine } from './kql/engine.js';
import { SearchStore } from './search/store.js';
import { OneLakeStore } from './onelake/store.js';
import { LakeStore } from './lake/store.js';
import { ReportingStore } from './reporting/store.js';
import { SynapseStore } from './synapse/store.js';
import type { TdsServer } from './sql/index.js';
import { loopbackAliases } from './http/context.js';

/** All state of one sandbox: ids, directory, switches, fault rules, the request log and each service's store. */
export class SandboxCore {
  readonly seed: string;
  readonly host: string;
  urls!: SandboxUrls;
  ids!: SandboxIds;
  idSource!: IdSource;
  switches!: SwitchValues;
  directory!: Directory;
  identity!: IdentityState;
  dataPlatform!: PlatformStore;
  arm!: ArmStore;
  kql!: KqlEngine;
  search!: SearchStore;
  oneLake!: OneLakeStore;
  lake!: LakeStore;
  reporting!: ReportingStore;
  synapse!: SynapseStore;
  /** The TDS endpoint (its state lives in the server, which startSandbox attaches here). */
  sql?: TdsServer;
  /** The Synapse workspace's serverless SQL pool (its own TDS endpoint). */
  sqlServerless?: TdsServer;
  /** Object ids of the serverless pool's admins (Synapse SQL Administrators): they log in as dbo. */
  serverlessAdmins: string[] = [];
  readonly log = new RequestLog();
  faults!: Faults;
  latency: Partial<Record<ServiceName, number>> = {};
  tokens!: TokenIssuer;

  private constructor(readonly options: SandboxOptions) {
    this.seed = options.seed ?? 'sandbox';
    this.host = options.host ?? '127.0.0.1';
    if (!/^(127\.\d+\.\d+\.\d+|::1|localhost)$/.test(this.host))
      throw new Error(`the sandbox listens on loopback only; host '${this.host}' is not a loopback address`);
  }

  static async create(options: SandboxOptions): Promise<SandboxCore> {
    const core = new SandboxCore(options);
    const key = await signingKeyFor(core.seed);
    core.reset();
    core.tokens = new TokenIssuer(key, core.ids.tenantId, () =>
      loopbackAliases(core.urls?.identity ?? 'http://127.0.0.1').map((o) => `${o}/${core.ids.tenantId}/v2.0`),
    );
    return core;
  }

  /** Back to the seeded state: stores, directory, switches, fault rules, latency and the request log. */
  reset(): void {
    this.ids = makeIds(this.seed);
    this.idSource = new IdSource(this.seed);
    this.switches = defaultSwitches(this.options.pageSize);
    this.directory = new Directory(this.ids);
    this.identity = new IdentityState();
    this.faults = new Faults(this.idSource);
    this.latency = { ...this.options.latencyMs };
    this.log.clear();
    this.dataPlatform = new PlatformStore(this.ids, this.idSource, this.switches);
    this.kql = new KqlEngine(this.ids, this.directory, this.switches);
    this.arm = new ArmStore(this.ids, this.idSource, this.switches, this.kql);
    this.search = new SearchStore(this.ids);
    this.oneLake = new OneLakeStore();
    this.lake = new LakeStore(this.ids);
    this.reporting = new ReportingStore(this.ids, this.idSource, this.switches, this.seed);
    this.synapse = new SynapseStore(this.ids, this.idSource);
    this.sql?.reset();
    this.sqlServerless?.reset();
    this.serverlessAdmins = [
      ...this.ids.users.filter((u) => u.upn.startsWith('ada@')).map((u) => u.objectId),
      this.ids.serviceIdentity.objectId,
    ];
  }

  /** The KQL cluster's own audiences (its URI) besides the public Kusto resource. */
  kqlAudiences(): string[] {
    return [
      ...loopbackAliases(this.urls.kql).flatMap((uri) => [uri, `${uri}/`]),
      'https://kusto.kusto.windows.net',
      'https://kusto.kusto.windows.net/',
    ];
  }

  /** Loopback addresses that are valid token resources (the cluster URI, each emulator). */
  extraResources(): string[] {
    return Object.values(this.urls ?? {});
  }

  /** The forced sign-in failure that applies to a principal, if any (switch identity.failure). */
  forcedFailure(p: Principal | undefined): { code: string | number; principal?: string } | undefined {
    const f = this.switches['identity.failure'];
    if (!f) return undefined;
    if (!f.principal || f.principal === '*') return f;
    const target = this.directory.find(f.principal);
    return target && p && target.objectId === p.objectId ? f : undefined;
  }

  /** An application token (client credentials or managed identity) for a principal and audience. */
  async appToken(
    p: Principal,
    audience: string,
    credentialType: 'secret' | 'assertion' | 'managed',
  ): Promise<{ token: string; expiresOn: number }> {
    const claims: Record<string, unknown> = {
      aud: audience,
      appid: p.appId,
      appidacr: credentialType === 'secret' ? '1' : credentialType === 'assertion' ? '2' : '2',
      idp: this.tokens.v1Issuer,
      idtyp: 'app',
      oid: p.objectId,
      sub: p.objectId,
      rh: `0.${Buffer.from(p.objectId).toString('base64url').slice(0, 20)}.`,
      roles: p.appRoles ?? [],
      ...(p.kind === 'managedIdentity'
        ? {
            xms_mirid: `/subscriptions/${this.ids.subscriptionId}/resourcegroups/${this.ids.resourceGroup}/providers/Microsoft.Web/sites/${p.displayName}`,
          }
        : {}),
    };
    return this.tokens.mint(claims, this.switches['identity.tokenLifetimeSeconds']);
  }

  /** A delegated (user) token for a client app and audience. */
  async userToken(user: Principal, clientId: string, audience: string, scopes: string[]): Promise<{ token: string; expiresOn: number }> {
    const claims: Record<string, unknown> = {
      aud: audience,
      appid: clientId,
      appidacr: '0',
      amr: user.mfaRequired ? ['pwd', 'mfa'] : ['pwd'],
      idtyp: 'user',
      name: user.displayName,
      oid: user.objectId,
      sub: user.objectId,
      upn: user.upn,
      unique_name: user.upn,
      scp: scopes.filter((s) => s !== '.default').join(' ') || 'user_impersonation',
      roles: user.appRoles ?? [],
      ...(user.directoryRoles?.length ? { wids: user.directoryRoles } : {}),
      ...(user.kind === 'guest' ? { idp: 'https://sts.windows.net/partner-tenant/', acct: 1 } : {}),
    };
    return this.tokens.mint(claims, this.switches['identity.tokenLifetimeSeconds']);
  }
}
