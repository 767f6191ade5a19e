import type { Caller } from '../auth/caller.js';
import type { CloudProfile } from '../cloud/profiles.js';
import type { IdentityOpsConfig } from '../config/identity-ops.js';
import type { Metrics } from '../metrics.js';
import type { Backends } from '../provisioning/context.js';
import type { Db } from '../store/db.js';
import type { TenancyService } from '../tenancy/tenancy-service.js';
import { checkClaims, decodeToken, type ClaimExpectations } from './claims.js';
import { ApplicationCredentialClient } from '../backends/graph.js';
import { VaultClient } from '../backends/vault.js';
import { CredentialRegistry } from './credentials.js';
import { diagnose, type DiagnoseInput } from './diagnosis.js';
import { FixService } from './fixes.js';
import { IncidentService } from './incidents.js';
import { ChangeJournal } from './journal.js';
import { ProbeService } from './probes.js';
import { RotationService } from './rotations.js';
import { registerExpiryGauges } from './secret-alerts.js';
import type { IdentitySignals } from './signals.js';

export interface IdentityOptions {
  db: Db;
  profile: CloudProfile;
  /** The backing clients the installs use (built once in the composition root): the same instances, the same limits. */
  backends: Pick<Backends, 'pipeline' | 'dataPlatform' | 'oneLake'>;
  signals: IdentitySignals;
  metrics: Metrics;
  /** The tenant, graph and vault settings (SVC_TENANT_ID, SVC_GRAPH_*, SVC_VAULT_*). */
  settings: IdentityOpsConfig;
  /** Which platform workspaces each tenant may touch (a rollback re-checks the one its change named). */
  tenancy: TenancyService;
  /** The clock of the whole domain (tests set it to days before an expiry, or past the 24-hour overlap). */
  now?: () => Date;
}

/** The identity-operations domain: signals, diagnosis, token inspection, probes, fixes, secrets, incidents. */
export class IdentityService {
  private clock: () => Date;
  readonly signals: IdentitySignals;
  readonly journal: ChangeJournal;
  readonly fixes: FixService;
  readonly probes: ProbeService;
  readonly credentials: CredentialRegistry;
  readonly rotations: RotationService;
  readonly incidents: IncidentService;

  private constructor(private readonly options: IdentityOptions) {
    this.clock = options.now ?? (() => new Date());
    const now = () => this.clock();
    const { db, profile, settings, backends } = options;
    this.signals = options.signals;
    this.signals.now = now;
    // The application API's address is the cloud profile's (none in the sandbox), SVC_GRAPH_URL overriding it.
    const graphUrl = (settings.graphUrl ?? profile.graphUrl)?.replace(/\/+$/, '');
    const vaultUrl = settings.vaultUrl;
    // Graph and the vault are outside the data-plane suffixes: their calls' pipeline also trusts exactly their hosts.
    const extra = [graphUrl, vaultUrl].filter((u): u is string => Boolean(u)).map((u) => new URL(u).hostname);
    const pipeline = backends.pipeline.trusting(extra);
    const graph = graphUrl
      ? new ApplicationCredentialClient(pipeline, graphUrl, settings.graphAudience ?? profile.graphAudience)
      : undefined;
    const vault = vaultUrl ? new VaultClient(pipeline, vaultUrl, settings.vaultAudience ?? profile.vaultAudience) : undefined;
    this.journal = new ChangeJournal(db, now);
    this.fixes = new FixService({
      profile,
      platform: backends.dataPlatform,
      journal: this.journal,
      graph,
      vault,
      tenancy: options.tenancy,
    });
    this.probes = new ProbeService({ profile, backends, signals: this.signals, tenantId: settings.tenantId, now });
    this.credentials = new CredentialRegistry(db, now, options.tenancy);
    this.rotations = new RotationService({
      db,
      credentials: this.credentials,
      journal: this.journal,
      fixes: this.fixes,
      graph,
      vault,
      tenancy: options.tenancy,
      authUrl: profile.authUrl,
      scope: `${profile.dataPlatformAudience.replace(/\/+$/, '')}/.default`,
      tenantId: settings.tenantId,
      now,
    });
    this.incidents = new IncidentService({ db, signals: this.signals, journal: this.journal, probes: this.probes, now });
  }

  /** Builds the domain, loads the credential cache and registers the expiry gauge on /metrics. */
  static async create(options: IdentityOptions): Promise<IdentityService> {
    const service = new IdentityService(options);
    await service.credentials.load();
    registerExpiryGauges(
      options.metrics,
      () => service.credentials.cached().map((c) => new Date(c.expiresAt)),
      () => service.now(),
    );
    return service;
  }

  now(): Date {
    return this.clock();
  }

  /** Replaces the domain's clock (tests). */
  setClock(now: () => Date): void {
    this.clock = now;
  }

  diagnose(input: DiagnoseInput) {
    return diagnose(input);
  }

  /** Decodes a token and checks its claims against the selected cloud and the identity; the token is not kept. */
  inspectToken(token: string, expect: Omit<ClaimExpectations, 'audiences'> & { audiences?: string[] }) {
    const { header, claims } = decodeToken(token);
    const audiences = expect.audiences ?? [...new Set([this.options.profile.dataPlatformAudience, this.options.profile.biAudience])];
    const result = checkClaims(claims, { ...expect, audiences }, this.now());
    const shown = Object.fromEntries(
      ['aud', 'iss', 'appid', 'azp', 'oid', 'tid', 'sub', 'upn', 'idtyp', 'roles', 'wids', 'scp', 'iat', 'nbf', 'exp']
        .filter((k) => k in claims)
        .map((k) => [k, claims[k]]),
    );
    return { ...result, alg: header.alg, claims: shown };
  }

  /** Everything the console banner shows: the caller's tenant's expiry alerts. */
  alerts(caller: Caller) {
    return this.credentials.alerts(caller);
  }
}
