import fs from 'node:fs';
import { EXIT } from '../api.js';
import { opt, UsageError } from '../args.js';
import { fields, table } from '../table.js';
import { type Command, json, list, probeBody } from './options.js';

const incidentView = (i: any) =>
  [
    fields(i, ['id', 'title', 'severity', 'status', 'identityType', 'startedAt', 'openedAt', 'verifiedAt', 'monitoringUntil', 'closedAt']),
    `\nSeverity reasons:\n${i.severityReasons.map((r: string) => `  - ${r}`).join('\n')}`,
    i.changeRequests.length ? `\nChange requests due:\n${table(i.changeRequests, ['approvalId', 'dueAt', 'overdue'])}` : '',
    i.changes.length ? `\nChanges:\n${table(i.changes, ['id', 'state', 'kind', 'summary'])}` : '',
    i.verification
      ? `\nVerification (${i.verification.passed ? 'passed' : 'FAILED'}):\n${table(
          i.verification.checks.map((c: any) => ({ ...c, result: c.skipped ? 'SKIP' : c.ok ? 'PASS' : 'FAIL' })),
          ['check', 'result', 'detail'],
        )}`
      : '',
  ]
    .filter(Boolean)
    .join('\n');

/** `svc identity incident`: open an identity incident, record its approvals and changes, verify and close it. */
export const incident: Command = async (api, args, out, env) => {
  const [action = 'list', id, sub] = args.positionals;
  const show = (r: any) => {
    out(json(args) ? JSON.stringify(r.incident, null, 2) : incidentView(r.incident));
    return EXIT.ok;
  };
  const need = () => {
    if (!id) throw new UsageError(`incident ${action} <incidentId>`);
    return encodeURIComponent(id);
  };
  switch (action) {
    case 'list': {
      const r = await api.call('GET', '/incidents');
      out(
        json(args)
          ? JSON.stringify(r.incidents, null, 2)
          : table(r.incidents, ['id', 'severity', 'status', 'title', 'openedAt', 'monitoringUntil']),
      );
      return EXIT.ok;
    }
    case 'open': {
      const facts: Record<string, boolean> = {};
      for (const f of [
        'productionPipelineHalted',
        'complianceReportingBlocked',
        'tenantWidePolicyMisconfiguration',
        'singleWorkspaceDown',
        'primaryCicdIdentityBroken',
        'guestWithoutAccess',
        'nonProduction',
        'noProductionImpact',
      ]) {
        if (args.options[f.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)] === true) facts[f] = true;
      }
      return show(
        await api.call('POST', '/incidents', {
          title: opt(args, 'title', true),
          ...(opt(args, 'identity-type') ? { identityType: opt(args, 'identity-type') } : {}),
          ...(list(opt(args, 'principals')) ? { principals: list(opt(args, 'principals')) } : {}),
          ...(Object.keys(facts).length ? { facts } : {}),
          ...(opt(args, 'started-at') ? { startedAt: new Date(opt(args, 'started-at')!).toISOString() } : {}),
        }),
      );
    }
    case 'show':
      return show(await api.call('GET', `/incidents/${need()}`));
    case 'approve':
      return show(
        await api.call('POST', `/incidents/${need()}/approvals`, {
          changeKind: opt(args, 'kind', true),
          approver: opt(args, 'approver', true),
          ...(args.options.verbal === true ? { verbal: true } : {}),
        }),
      );
    case 'change-request':
      return show(
        await api.call('POST', `/incidents/${need()}/approvals/${encodeURIComponent(sub ?? opt(args, 'approval', true))}/change-request`, {
          changeRequestId: opt(args, 'cr', true),
        }),
      );
    case 'snapshot':
      return show(
        await api.call('POST', `/incidents/${need()}/snapshots`, {
          policy: opt(args, 'policy', true),
          snapshot: JSON.parse(fs.readFileSync(opt(args, 'file', true), 'utf8')),
        }),
      );
    case 'change': {
      const r = await api.call('POST', `/incidents/${need()}/changes`, {
        kind: opt(args, 'kind', true),
        summary: opt(args, 'summary', true),
        ...(opt(args, 'policy') ? { policy: opt(args, 'policy') } : {}),
      });
      out(json(args) ? JSON.stringify(r.change, null, 2) : `recorded change ${r.change.id}: ${r.change.summary}`);
      return EXIT.ok;
    }
    case 'verify': {
      const r = await api.call('POST', `/incidents/${need()}/verify`, { ...probeBody(args, env), pipelineId: opt(args, 'pipeline', true) });
      show(r);
      return r.incident.verification?.passed ? EXIT.ok : EXIT.problemFound;
    }
    case 'close':
      return show(await api.call('POST', `/incidents/${need()}/close`));
    case 'events': {
      const r = await api.call('GET', `/incidents/${need()}/events`);
      out(json(args) ? JSON.stringify(r.events, null, 2) : table(r.events, ['seq', 'at', 'kind', 'data']));
      return EXIT.ok;
    }
  }
  throw new UsageError(`incident ${action}: use list, open, show, approve, change-request, snapshot, change, verify, close or events`);
};
