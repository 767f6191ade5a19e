import type { DataPlatformClient } from '../backends/data-platform.js';
import { BackingError } from '../backends/http-pipeline.js';
import type { TokenSource } from '../backends/credential.js';
import { isDirectory, type OneLakeClient } from '../backends/onelake.js';
import type { CloudProfile } from '../cloud/profiles.js';
import { InputError, type RemediationGate } from '../errors.js';
import type { Backends } from '../provisioning/context.js';
import { classify } from '../backends/failures.js';
import type { PlatformNeed } from '../provisioning/gates.js';
import { diagnose } from './diagnosis.js';
import type { IdentityType } from './identity-types.js';
import type { IdentitySignals } from './signals.js';
import { acquireToken } from '../backends/token-endpoint.js';

/** Who a probe runs as: the service's own identity, or an identity whose secret or refresh token is given for this probe only. */
export type ProbeIdentity =
  | { kind: 'service' }
  | { kind: 'client-credentials'; tenantId?: string; clientId: string; clientSecret: string }
  | { kind: 'refresh-token'; tenantId?: string; clientId: string; refreshToken: string; clientSecret?: string };

export interface ProbeRequest {
  identity: ProbeIdentity;
  workspaceId: string;
  pipelineId?: string;
  lakehouse?: { lakehouseId: string; table: string };
  identityType?: IdentityType;
}

export type ProbeCheck = 'token' | 'workspace-read' | 'lakehouse-count' | 'pipeline-run' | 'sign-ins';

export interface ProbeResult {
  check: ProbeCheck;
  ok: boolean;
  skipped?: boolean;
  at: string;
  ms: number;
  detail: string;
  status?: number;
  code?: string;
  diagnosis?: string;
  /** The service identity's own 401/403 from the data platform: the role or tenant setting it lacks. */
  gate?: RemediationGate;
}

export interface ProbeDeps {
  profile: CloudProfile;
  /** The service identity's clients (the installs' own); a probe as another identity uses them over its pipeline. */
  backends: Pick<Backends, 'pipeline' | 'dataPlatform' | 'oneLake'>;
  signals: IdentitySignals;
  tenantId?: string;
  now: () => Date;
  jobDeadlineMs?: number;
}

const diagnosisLink = (service: string, status: number, code?: string) =>
  `/api/admin/identity/diagnose?${new URLSearchParams({ service, status: String(status), ...(code ? { code } : {}) })}`;

/** Probes as a given identity: token, workspace read, lakehouse row count, pipeline run; each with its result and time. */
export class ProbeService {
  constructor(private readonly deps: ProbeDeps) {}

  async run(req: ProbeRequest): Promise<{ ok: boolean; principal: string; results: ProbeResult[] }> {
    const { profile } = this.deps;
    const results: ProbeResult[] = [];
    const asService = req.identity.kind === 'service';
    const step = async (check: ProbeCheck, fn: () => Promise<string>, call?: PlatformNeed) => {
      const at = this.deps.now().toISOString();
      const started = Date.now();
      try {
        results.push({ check, ok: true, at, ms: Date.now() - started, detail: await fn() });
      } catch (err) {
        const ms = Date.now() - started;
        if (!(err instanceof BackingError)) throw err;
        const d = diagnose({
          status: err.status,
          code: err.code,
          body: err.body,
          service: err.service,
          identityType: req.identityType,
          ...(call && err.service === 'data-platform' ? { call } : {}),
        });
        const v = asService && call ? classify(err, { profile, gates: { platform: call } }) : undefined;
        const gate = v?.kind === 'gate' ? v.gate : undefined;
        const grant = d.requiredGrant ? `; required: ${d.requiredGrant}` : '';
        results.push({
          check,
          ok: false,
          at,
          ms,
          detail: err.body || err.message,
          status: err.status,
          ...(err.code ? { code: err.code } : {}),
          diagnosis: `${d.symptom.text}: ${d.likelyCauses.join('; ')}${grant} (${diagnosisLink(err.service, err.status, err.code)})`,
          ...(gate ? { gate } : {}),
        });
      }
    };
    const skip = (check: ProbeCheck, why: string) =>
      results.push({ check, ok: false, skipped: true, at: this.deps.now().toISOString(), ms: 0, detail: why });

    const source = this.tokenSource(req.identity);
    await step('token', async () => {
      await source.getToken(profile.dataPlatformAudience);
      return `token issued for ${profile.dataPlatformAudience}`;
    });
    const { platform, oneLake } = this.clientsAs(req.identity, source);
    const haveToken = results[0]!.ok;
    const noToken = 'not run: no token';
    if (haveToken)
      await step(
        'workspace-read',
        async () => `read workspace ${(await platform.getWorkspace(req.workspaceId)).displayName ?? req.workspaceId}`,
        { call: 'read-workspace', workspaceId: req.workspaceId },
      );
    else skip('workspace-read', noToken);
    if (req.lakehouse) {
      if (haveToken) await step('lakehouse-count', () => this.lakehouseCount(oneLake, req.workspaceId, req.lakehouse!));
      else skip('lakehouse-count', noToken);
    } else if (req.identityType === 'workspace-identity')
      skip('lakehouse-count', 'not run: give lakehouse {lakehouseId, table} for a workspace-identity case');
    if (req.pipelineId) {
      if (haveToken)
        await step('pipeline-run', () => this.pipelineRun(platform, req.workspaceId, req.pipelineId!), {
          call: 'run-pipeline',
          workspaceId: req.workspaceId,
        });
      else skip('pipeline-run', noToken);
    }
    return { ok: results.every((r) => r.ok || r.skipped) && haveToken, principal: source.principal, results };
  }

  /**
   * The clients a probe calls: the service's own, or the same clients over a pipeline acting as the given identity,
   * which keeps the service's per-service limits (a probe waits its turn behind the installs' calls).
   */
  private clientsAs(identity: ProbeIdentity, source: TokenSource): { platform: DataPlatformClient; oneLake: OneLakeClient } {
    const { backends, signals } = this.deps;
    if (identity.kind === 'service') return { platform: backends.dataPlatform, oneLake: backends.oneLake };
    const pipeline = backends.pipeline.as(source, (f) => signals.record(f));
    return { platform: backends.dataPlatform.through(pipeline), oneLake: backends.oneLake.through(pipeline) };
  }

  /** The identity's tokens: acquired once per audience; the secret lives only in this closure for the probe. */
  private tokenSource(identity: ProbeIdentity): TokenSource {
    if (identity.kind === 'service') return this.deps.backends.pipeline.credential;
    const tenantId = identity.tenantId ?? this.deps.tenantId;
    if (!tenantId) throw new InputError('identity.tenantId is required (the deployment has no SVC_TENANT_ID)', 'identity.tenantId');
    const cache = new Map<string, string>();
    const signals = this.deps.signals;
    const authUrl = this.deps.profile.authUrl;
    return {
      principal: identity.clientId,
      async getToken(audience: string) {
        const hit = cache.get(audience);
        if (hit) return hit;
        const r = await acquireToken({
          authUrl,
          tenantId,
          clientId: identity.clientId,
          scope: `${audience.replace(/\/+$/, '')}/.default`,
          ...(identity.kind === 'refresh-token'
            ? { refreshToken: identity.refreshToken, clientSecret: identity.clientSecret }
            : { clientSecret: identity.clientSecret }),
        });
        if (!r.ok) {
          signals.record({
            service: 'identity',
            status: r.status,
            code: r.code,
            principal: identity.clientId,
            url: `${authUrl}/${tenantId}/oauth2/v2.0/token`,
          });
          throw new BackingError('identity', r.status, r.body, r.code, r.description);
        }
        cache.set(audience, r.accessToken);
        return r.accessToken;
      },
    };
  }

  /** Counts the rows of a lakehouse table's files in OneLake (CSV without its header, or JSON lines). */
  private async lakehouseCount(oneLake: OneLakeClient, ws: string, lh: { lakehouseId: string; table: string }): Promise<string> {
    const paths = await oneLake.listPaths(ws, `${lh.lakehouseId}/Tables/${lh.table}`, true);
    const files = paths.filter((p) => !isDirectory(p) && !p.name.includes('/_delta_log/'));
    let rows = 0;
    for (const f of files) {
      const lines = (await oneLake.readText(ws, f.name)).split(/\r?\n/).filter((l) => l.trim());
      rows += f.name.endsWith('.csv') ? Math.max(0, lines.length - 1) : lines.length;
    }
    return `SELECT COUNT(*) FROM ${lh.table}: ${rows} rows in ${files.length} file(s)`;
  }

  /** Starts a pipeline job instance and follows it (bounded) to its end. */
  private async pipelineRun(platform: DataPlatformClient, ws: string, pipelineId: string): Promise<string> {
    const started = await platform.runPipeline(ws, pipelineId);
    if (!started.location) return `job accepted (${started.status})`;
    const deadline = Date.now() + (this.deps.jobDeadlineMs ?? 30_000);
    for (;;) {
      const { job, retryAfter } = await platform.getJobInstance(started.location);
      if (job.status === 'Completed') return `job ${job.id} Completed`;
      if (job.status === 'Failed' || job.status === 'Cancelled')
        throw new BackingError('data-platform', 200, JSON.stringify(job.failureReason ?? job), job.failureReason?.errorCode ?? job.status);
      if (Date.now() > deadline) return `job ${job.id} ${job.status} (still running at the probe's deadline)`;
      const wait = Math.min(Math.max((retryAfter ?? 1) * 1000, 100), 2000);
      await new Promise((r) => setTimeout(r, Math.min(wait, 250)));
    }
  }
}
