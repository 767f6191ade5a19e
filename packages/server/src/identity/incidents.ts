import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Caller } from '../auth/caller.js';
import { ConflictError, InputError, NotFoundError } from '../errors.js';
import type { Db } from '../store/db.js';
import type { StoreRow } from '../store/schema.js';
import type { IdentityType } from './identity-types.js';
import {
  approvalProblem,
  changeProblem,
  changeRequestDue,
  closeProblem,
  monitoringUntil,
  openChangeRequests,
  type Approval,
} from './incident-rules.js';
import type { Change, ChangeJournal } from './journal.js';
import type { ProbeRequest, ProbeResult, ProbeService } from './probes.js';
import { classifySeverity, type Severity, type SeverityFacts } from './severity.js';
import type { IdentitySignals } from './signals.js';
import { storableInstant } from '../values.js';

/** What an incident row keeps in its data column. */
export interface IncidentData {
  identityType?: IdentityType;
  principals: string[];
  facts: SeverityFacts;
  severityReasons: string[];
  startedAt: string;
  approvals: Approval[];
  snapshots: Array<{ policy: string; at: string; snapshot: unknown }>;
  verification?: { at: string; passed: boolean; checks: ProbeResult[] };
  verifiedAt?: string;
  monitoringUntil?: string;
}

export interface Incident extends Omit<IncidentData, 'snapshots'> {
  id: string;
  title: string;
  status: 'open' | 'monitoring' | 'closed';
  severity: Severity;
  openedAt: string;
  closedAt?: string;
  createdBy: string;
  snapshots: Array<{ policy: string; at: string }>;
  changeRequests: Array<{ approvalId: string; dueAt: string; overdue: boolean }>;
  changes: Change[];
}

type Row = StoreRow<'identity_incidents'>;

export interface IncidentDeps {
  db: Db;
  signals: IdentitySignals;
  journal: ChangeJournal;
  probes: ProbeService;
  now: () => Date;
}

/** Identity incidents: severity from the signals, approvals and changes, the verification checklist, monitoring, close. */
export class IncidentService {
  constructor(private readonly deps: IncidentDeps) {}

  async open(
    caller: Caller,
    input: {
      title: string;
      identityType?: IdentityType;
      principals?: string[];
      facts?: SeverityFacts;
      lookbackMinutes?: number;
      startedAt?: string;
    },
  ): Promise<Incident> {
    const now = this.deps.now();
    const since = new Date(now.getTime() - (input.lookbackMinutes ?? 60) * 60_000);
    let points = await this.deps.signals.points(caller.tenantId, since);
    if (input.principals?.length) points = points.filter((p) => input.principals!.includes(p.principal));
    const { severity, reasons } = classifySeverity(points, input.facts ?? {});
    const first = points.reduce<Date | undefined>((m, p) => (!m || p.at < m ? p.at : m), undefined);
    const startedAt = input.startedAt ? storableInstant(input.startedAt, 'startedAt') : (first ?? now);
    if (startedAt > now) throw new InputError('startedAt must be a past date-time', 'startedAt');
    const data: IncidentData = {
      identityType: input.identityType,
      principals: input.principals ?? [...new Set(points.map((p) => p.principal))].slice(0, 100),
      facts: input.facts ?? {},
      severityReasons: reasons,
      startedAt: startedAt.toISOString(),
      approvals: [],
      snapshots: [],
    };
    const id = randomUUID();
    await this.deps.db
      .insertInto('identity_incidents')
      .values({
        id,
        tenant_id: caller.tenantId,
        title: input.title,
        status: 'open',
        severity,
        data: JSON.stringify(data),
        opened_at: now.toISOString(),
        created_by: caller.userName,
      })
      .execute();
    await this.event(id, 'opened', { severity, reasons });
    return this.get(caller, id);
  }

  async list(caller: Caller): Promise<Incident[]> {
    const rows = await this.deps.db
      .selectFrom('identity_incidents')
      .selectAll()
      .where('tenant_id', '=', caller.tenantId)
      .orderBy('opened_at', 'desc')
      .orderBy('id')
      .limit(200)
      .execute();
    return Promise.all(rows.map((r) => this.view(caller, r)));
  }

  async get(caller: Caller, id: string): Promise<Incident> {
    return this.view(caller, await this.row(caller, id));
  }

  async events(caller: Caller, id: string) {
    await this.row(caller, id);
    const rows = await this.deps.db
      .selectFrom('identity_incident_events')
      .selectAll()
      .where('incident_id', '=', id)
      .orderBy('seq')
      .execute();
    return rows.map((r) => ({ seq: r.seq, kind: r.kind, data: r.data, at: r.at.toISOString() }));
  }

  /** Records an approval; verbal approval only for SEV1, with a retroactive change request due within 24 hours. */
  async approve(caller: Caller, id: string, input: { changeKind: string; approver: string; verbal?: boolean }): Promise<Incident> {
    const row = await this.openRow(caller, id);
    const problem = approvalProblem(row.severity, Boolean(input.verbal));
    if (problem) throw new ConflictError(problem, 'approval_refused', 'verbal');
    const now = this.deps.now();
    const approval: Approval = {
      id: randomUUID(),
      changeKind: input.changeKind,
      approver: input.approver,
      verbal: Boolean(input.verbal),
      at: now.toISOString(),
      ...(input.verbal ? { changeRequestDueAt: changeRequestDue(now).toISOString() } : {}),
    };
    await this.update(id, row, (d) => d.approvals.push(approval));
    await this.event(id, 'approval', approval);
    return this.get(caller, id);
  }

  /** Files the retroactive change request of a verbal approval. */
  async fileChangeRequest(caller: Caller, id: string, approvalId: string, changeRequestId: string): Promise<Incident> {
    const row = await this.row(caller, id);
    const a = row.data.approvals.find((x) => x.id === approvalId);
    if (!a) throw new NotFoundError('Approval', approvalId);
    if (!a.verbal) throw new ConflictError('Only verbal approvals need a retroactive change request', 'not_verbal');
    await this.update(id, row, (d) => {
      d.approvals.find((x) => x.id === approvalId)!.changeRequestId = changeRequestId;
    });
    await this.event(id, 'change-request-filed', { approvalId, changeRequestId, late: this.deps.now() > new Date(a.changeRequestDueAt!) });
    return this.get(caller, id);
  }

  /** Takes a policy snapshot before an edit. */
  async snapshot(caller: Caller, id: string, input: { policy: string; snapshot: unknown }): Promise<Incident> {
    const row = await this.openRow(caller, id);
    const at = this.deps.now().toISOString();
    await this.update(id, row, (d) => d.snapshots.push({ policy: input.policy, at, snapshot: input.snapshot }));
    await this.event(id, 'snapshot', { policy: input.policy });
    return this.get(caller, id);
  }

  /** Records a change made outside the service (e.g. a conditional-access edit): approval and snapshot checked, journaled with its inverse. */
  async recordChange(caller: Caller, id: string, input: { kind: string; summary: string; policy?: string }): Promise<Change> {
    const row = await this.openRow(caller, id);
    const d = row.data;
    const snap = input.policy ? [...d.snapshots].reverse().find((s) => s.policy === input.policy) : undefined;
    const problem = changeProblem(input.kind, d.approvals, Boolean(snap));
    if (problem) throw new ConflictError(problem, 'change_refused');
    const change = await this.deps.journal.record(caller, {
      kind: input.kind,
      summary: input.summary,
      target: { policy: input.policy ?? null },
      incidentId: id,
      inverse: { kind: 'restore-policy-snapshot', policy: input.policy ?? '', snapshot: snap?.snapshot ?? null },
    });
    await this.event(id, 'change', { changeId: change.id, kind: input.kind, summary: input.summary });
    return change;
  }

  /** The verification checklist after a fix; when it passes, monitoring runs for twice the incident's duration. */
  async verify(caller: Caller, id: string, probe: ProbeRequest & { pipelineId: string }): Promise<Incident> {
    const row = await this.openRow(caller, id);
    const d = row.data;
    const identityType = probe.identityType ?? d.identityType;
    const run = await this.deps.probes.run({ ...probe, identityType });
    const now = this.deps.now();
    const changes = await this.deps.journal.list(caller, { incidentId: id });
    const fixAt = changes.length ? new Date(Math.max(...changes.map((c) => Date.parse(c.createdAt)))) : new Date(row.opened_at);
    // Refusals after the fix count; those at the fix's instant came before it took effect.
    const failures = (await this.deps.signals.list({ tenantId: caller.tenantId, since: fixAt, principal: run.principal })).filter(
      (s) => Date.parse(s.at) > fixAt.getTime(),
    );
    const checks: ProbeResult[] = [
      ...run.results,
      {
        check: 'sign-ins',
        ok: failures.length === 0,
        at: now.toISOString(),
        ms: 0,
        detail: failures.length
          ? `${failures.length} refused sign-in(s) or call(s) of ${run.principal} since the fix at ${fixAt.toISOString()}`
          : `result code 0: no refusal of ${run.principal} since the fix at ${fixAt.toISOString()}`,
      },
    ];
    const passed = checks.every((c) => c.ok);
    await this.update(
      id,
      row,
      (data) => {
        data.verification = { at: now.toISOString(), passed, checks };
        if (passed) {
          data.verifiedAt = now.toISOString();
          data.monitoringUntil = monitoringUntil(new Date(data.startedAt), now).toISOString();
        }
      },
      passed ? 'monitoring' : undefined,
    );
    await this.event(id, 'verification', { passed, checks: checks.map((c) => ({ check: c.check, ok: c.ok })) });
    return this.get(caller, id);
  }

  /** Closes the incident once monitoring is over and every verbal approval has its change request. */
  async close(caller: Caller, id: string): Promise<Incident> {
    const row = await this.row(caller, id);
    const d = row.data;
    const problem =
      closeProblem({ status: row.status, monitoringUntil: d.monitoringUntil }, this.deps.now()) ??
      (openChangeRequests(d.approvals, this.deps.now()).length
        ? 'file the retroactive change request of every verbal approval first'
        : undefined);
    if (problem) throw new ConflictError(`The incident cannot close: ${problem}`, 'incident_not_closable');
    await this.deps.db
      .updateTable('identity_incidents')
      .set({ status: 'closed', closed_at: this.deps.now().toISOString() })
      .where('id', '=', id)
      .execute();
    await this.event(id, 'closed', {});
    return this.get(caller, id);
  }

  private async row(caller: Caller, id: string): Promise<Row> {
    const row = await this.deps.db
      .selectFrom('identity_incidents')
      .selectAll()
      .where('tenant_id', '=', caller.tenantId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw new NotFoundError('Incident', id);
    return row;
  }

  private async openRow(caller: Caller, id: string): Promise<Row> {
    const row = await this.row(caller, id);
    if (row.status === 'closed') throw new ConflictError('The incident is closed', 'incident_closed');
    return row;
  }

  private async update(id: string, row: Row, change: (d: IncidentData) => void, status?: Incident['status']) {
    const data = structuredClone(row.data);
    change(data);
    await this.deps.db
      .updateTable('identity_incidents')
      .set({ data: JSON.stringify(data), ...(status ? { status } : {}) })
      .where('id', '=', id)
      .execute();
  }

  private async event(incidentId: string, kind: string, data: unknown) {
    await this.deps.db
      .insertInto('identity_incident_events')
      .values({
        incident_id: incidentId,
        kind,
        data: JSON.stringify(data),
        at: this.deps.now().toISOString(),
        seq: sql<number>`(SELECT COALESCE(MAX(seq), 0) + 1 FROM identity_incident_events WHERE incident_id = ${incidentId})`,
      })
      .execute();
  }

  private async view(caller: Caller, r: Row): Promise<Incident> {
    const d = r.data;
    return {
      ...d,
      id: r.id,
      title: r.title,
      status: r.status,
      severity: r.severity,
      openedAt: r.opened_at.toISOString(),
      ...(r.closed_at ? { closedAt: r.closed_at.toISOString() } : {}),
      createdBy: r.created_by,
      snapshots: d.snapshots.map((s) => ({ policy: s.policy, at: s.at })),
      changeRequests: openChangeRequests(d.approvals, this.deps.now()),
      changes: await this.deps.journal.list(caller, { incidentId: r.id }),
    };
  }
}
