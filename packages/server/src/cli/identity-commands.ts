import fs from 'node:fs';
import { EXIT, type IdentityApi } from './api.js';
import { opt, UsageError, type Args } from './args.js';
import { fields, table } from './table.js';

type Out = (text: string) => void;
type Command = (api: IdentityApi, args: Args, out: Out, env: NodeJS.ProcessEnv) => Promise<number>;

const list = (v: string | undefined) =>
  v
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;
const json = (args: Args) => args.options.json === true;

/** Reads a secret from the environment variable named by --<name>-env, or from stdin with --<name>-stdin; never from argv. */
function secretFrom(args: Args, env: NodeJS.ProcessEnv, name: string): string | undefined {
  const variable = opt(args, `${name}-env`);
  if (variable) {
    const v = env[variable];
    if (!v) throw new UsageError(`the environment variable ${variable} is empty`);
    return v;
  }
  if (args.options[`${name}-stdin`] === true) return fs.readFileSync(0, 'utf8').trim();
  return undefined;
}

const diagnose: Command = async (api, args, out) => {
  const body = opt(args, 'body');
  const input = {
    ...(opt(args, 'status') ? { status: Number(opt(args, 'status')) } : {}),
    ...(opt(args, 'code') ? { code: opt(args, 'code') } : {}),
    ...(body ? { body: body.startsWith('@') ? fs.readFileSync(body.slice(1), 'utf8') : body } : {}),
    ...(opt(args, 'identity-type') ? { identityType: opt(args, 'identity-type') } : {}),
    ...(opt(args, 'service') ? { service: opt(args, 'service') } : {}),
  };
  const { diagnosis: d } = await api.call('POST', '/diagnose', input);
  if (json(args)) return out(JSON.stringify(d, null, 2)), d.symptom.id === 'unrecognized' ? EXIT.problemFound : EXIT.ok;
  out(
    fields(
      {
        symptom: d.symptom.text,
        'matched on': d.matchedOn,
        'identity type': `${d.identityType}${d.identityTypeInferred ? ' (inferred)' : ''}`,
        'required grant': d.requiredGrant,
      },
      ['symptom', 'matched on', 'identity type', 'required grant'],
    ),
  );
  out('\nLikely causes:\n' + d.likelyCauses.map((c: string) => `  - ${c}`).join('\n'));
  out('\nFirst checks:\n' + d.firstChecks.map((c: string) => `  - ${c}`).join('\n'));
  out('\nActions:\n' + table(d.actions, ['action', 'command']));
  return d.symptom.id === 'unrecognized' ? EXIT.problemFound : EXIT.ok;
};

const inspectToken: Command = async (api, args, out, env) => {
  const token = opt(args, 'token') ?? secretFrom(args, env, 'token') ?? env.SVC_INSPECT_TOKEN;
  if (!token) throw new UsageError('give the token with --token-stdin, --token-env VAR or SVC_INSPECT_TOKEN');
  const r = await api.call('POST', '/inspect-token', {
    token,
    ...(opt(args, 'app-id') ? { expectedAppId: opt(args, 'app-id') } : {}),
    ...(opt(args, 'object-id') ? { expectedObjectId: opt(args, 'object-id') } : {}),
    ...(opt(args, 'tenant-id') ? { expectedTenantId: opt(args, 'tenant-id') } : {}),
    ...(list(opt(args, 'roles')) ? { expectedRoles: list(opt(args, 'roles')) } : {}),
    ...(list(opt(args, 'wids')) ? { expectedWids: list(opt(args, 'wids')) } : {}),
    ...(list(opt(args, 'audiences')) ? { audiences: list(opt(args, 'audiences')) } : {}),
  });
  if (json(args)) out(JSON.stringify(r, null, 2));
  else
    out(
      table(r.checks, ['claim', 'status', 'actual', 'expected']) +
        `\n\n${r.valid ? 'token claims are as expected' : 'token claims are NOT as expected'}`,
    );
  return r.valid ? EXIT.ok : EXIT.problemFound;
};

function probeBody(args: Args, env: NodeJS.ProcessEnv) {
  const clientId = opt(args, 'client-id');
  const secret = secretFrom(args, env, 'secret');
  const refresh = secretFrom(args, env, 'refresh-token');
  const identity = !clientId
    ? { kind: 'service' }
    : refresh
      ? {
          kind: 'refresh-token',
          clientId,
          refreshToken: refresh,
          ...(secret ? { clientSecret: secret } : {}),
          ...(opt(args, 'tenant') ? { tenantId: opt(args, 'tenant') } : {}),
        }
      : {
          kind: 'client-credentials',
          clientId,
          clientSecret:
            secret ??
            (() => {
              throw new UsageError('give the secret with --secret-env VAR or --secret-stdin');
            })(),
          ...(opt(args, 'tenant') ? { tenantId: opt(args, 'tenant') } : {}),
        };
  const lakehouse = opt(args, 'lakehouse');
  return {
    identity,
    workspaceId: opt(args, 'workspace', true),
    ...(opt(args, 'pipeline') ? { pipelineId: opt(args, 'pipeline') } : {}),
    ...(lakehouse ? { lakehouse: { lakehouseId: lakehouse, table: opt(args, 'table', true) } } : {}),
    ...(opt(args, 'identity-type') ? { identityType: opt(args, 'identity-type') } : {}),
  };
}

const probe: Command = async (api, args, out, env) => {
  const r = await api.call('POST', '/probes', probeBody(args, env));
  if (json(args)) out(JSON.stringify(r, null, 2));
  else
    out(
      table(
        r.results.map((x: any) => ({ ...x, result: x.skipped ? 'SKIP' : x.ok ? 'PASS' : 'FAIL' })),
        ['check', 'result', 'at', 'ms', 'status', 'code', 'detail'],
      ) + `\n\n${r.principal}: ${r.passed ? 'all checks passed' : 'checks failed'}`,
    );
  return r.passed ? EXIT.ok : EXIT.problemFound;
};

const firewall: Command = async (api, args, out) => {
  const [action = 'list'] = args.positionals;
  const ws = opt(args, 'workspace', true);
  const base = `/workspaces/${encodeURIComponent(ws)}`;
  if (action === 'list') {
    const r = await api.call('GET', `${base}/firewall-rules`);
    out(json(args) ? JSON.stringify(r.rules, null, 2) : table(r.rules, ['id', 'name', 'startIpAddress', 'endIpAddress']));
    return EXIT.ok;
  }
  if (action === 'check') {
    const r = await api.call('GET', `${base}/firewall-check?ip=${encodeURIComponent(opt(args, 'ip', true))}`);
    out(
      json(args)
        ? JSON.stringify(r, null, 2)
        : r.allowed
          ? `${r.ip} is allowed by ${r.allowingRules.map((x: any) => x.name).join(', ')}`
          : `${r.ip} is NOT inside any of the ${r.ruleCount} firewall rule(s)`,
    );
    return r.allowed ? EXIT.ok : EXIT.problemFound;
  }
  if (action === 'add') {
    const start = opt(args, 'start', true);
    const r = await api.call('POST', `${base}/firewall-rules`, {
      name: opt(args, 'name', true),
      startIpAddress: start,
      endIpAddress: opt(args, 'end') ?? start,
      ...(opt(args, 'incident') ? { incidentId: opt(args, 'incident') } : {}),
    });
    out(
      json(args)
        ? JSON.stringify(r, null, 2)
        : `added rule ${r.rule.id} (${r.rule.name} ${r.rule.startIpAddress}-${r.rule.endIpAddress})\nchange ${r.change.id}; undo with: svc identity rollback ${r.change.id}`,
    );
    return EXIT.ok;
  }
  if (action === 'remove') {
    const rule = opt(args, 'rule') ?? args.positionals[1];
    if (!rule) throw new UsageError('firewall remove needs --rule <id>');
    const r = await api.call(
      'DELETE',
      `${base}/firewall-rules/${encodeURIComponent(rule)}${opt(args, 'incident') ? `?incidentId=${opt(args, 'incident')}` : ''}`,
    );
    out(
      json(args)
        ? JSON.stringify(r, null, 2)
        : `removed rule ${rule}; change ${r.change.id}; undo with: svc identity rollback ${r.change.id}`,
    );
    return EXIT.ok;
  }
  throw new UsageError(`firewall ${action}: use list, check, add or remove`);
};

const grant: Command = async (api, args, out) => {
  const ws = opt(args, 'workspace', true);
  if (args.options.list === true || args.positionals[0] === 'list') {
    const r = await api.call('GET', `/workspaces/${encodeURIComponent(ws)}/role-assignments`);
    out(
      json(args)
        ? JSON.stringify(r.assignments, null, 2)
        : table(
            r.assignments.map((a: any) => ({
              id: a.id,
              principal: a.principal.displayName ?? a.principal.id,
              type: a.principal.type,
              role: a.role,
            })),
            ['id', 'principal', 'type', 'role'],
          ),
    );
    return EXIT.ok;
  }
  const r = await api.call('POST', `/workspaces/${encodeURIComponent(ws)}/role-assignments`, {
    principalId: opt(args, 'principal', true),
    role: opt(args, 'role') ?? 'Contributor',
    ...(opt(args, 'type') ? { principalType: opt(args, 'type') } : {}),
    ...(opt(args, 'incident') ? { incidentId: opt(args, 'incident') } : {}),
  });
  out(
    json(args)
      ? JSON.stringify(r, null, 2)
      : `granted ${r.assignment.role} to ${r.assignment.principal.id} (assignment ${r.assignment.id})\nchange ${r.change.id}; undo with: svc identity rollback ${r.change.id}`,
  );
  return EXIT.ok;
};

const rollback: Command = async (api, args, out) => {
  const id = args.positionals[0];
  if (!id || args.options.list === true) {
    const r = await api.call('GET', `/changes${opt(args, 'incident') ? `?incidentId=${opt(args, 'incident')}` : ''}`);
    out(json(args) ? JSON.stringify(r.changes, null, 2) : table(r.changes, ['id', 'state', 'kind', 'createdAt', 'createdBy', 'summary']));
    return EXIT.ok;
  }
  const r = await api.call('POST', `/changes/${encodeURIComponent(id)}/rollback`);
  out(json(args) ? JSON.stringify(r.change, null, 2) : `rolled back: ${r.change.summary} (${r.change.inverse.kind})`);
  return EXIT.ok;
};

const rotationView = (r: any) =>
  `${fields(r, ['id', 'state', 'nextStep', 'clientId', 'oldKeyId', 'newKeyId', 'vaultSecretName', 'vaultVersion'])}\n\n${table(r.log, ['at', 'step', 'detail'])}`;

const secrets: Command = async (api, args, out) => {
  const [action = 'list', id, step] = args.positionals;
  switch (action) {
    case 'list': {
      const r = await api.call('GET', '/credentials');
      out(
        json(args)
          ? JSON.stringify(r.credentials, null, 2)
          : table(r.credentials, ['id', 'displayName', 'clientId', 'keyId', 'expiresAt', 'vaultSecretName']),
      );
      return EXIT.ok;
    }
    case 'alerts': {
      const r = await api.call('GET', '/alerts');
      out(
        json(args)
          ? JSON.stringify(r.alerts, null, 2)
          : table(r.alerts, ['level', 'threshold', 'daysRemaining', 'displayName', 'clientId', 'keyId', 'expiresAt']),
      );
      return r.alerts.length ? EXIT.problemFound : EXIT.ok;
    }
    case 'register': {
      const r = await api.call('POST', '/credentials', {
        displayName: opt(args, 'name', true),
        clientId: opt(args, 'client-id', true),
        keyId: opt(args, 'key-id', true),
        expiresAt: new Date(opt(args, 'expires', true)).toISOString(),
        ...(opt(args, 'vault-secret') ? { vaultSecretName: opt(args, 'vault-secret') } : {}),
        ...(list(opt(args, 'consumers')) ? { consumers: list(opt(args, 'consumers')) } : {}),
      });
      out(
        json(args)
          ? JSON.stringify(r.credential, null, 2)
          : `registered ${r.credential.id} (${r.credential.displayName}, key ${r.credential.keyId}, expires ${r.credential.expiresAt})`,
      );
      return EXIT.ok;
    }
    case 'rotate': {
      if (!id) throw new UsageError('secrets rotate <credentialId>');
      const r = await api.call('POST', `/credentials/${encodeURIComponent(id)}/rotations`, {
        ...(opt(args, 'vault-secret') ? { vaultSecretName: opt(args, 'vault-secret') } : {}),
        ...(list(opt(args, 'consumers')) ? { consumers: list(opt(args, 'consumers')) } : {}),
      });
      out(json(args) ? JSON.stringify(r.rotation, null, 2) : rotationView(r.rotation));
      return EXIT.ok;
    }
    case 'rotation': {
      if (!id) throw new UsageError('secrets rotation <rotationId>');
      const r = await api.call('GET', `/rotations/${encodeURIComponent(id)}`);
      out(json(args) ? JSON.stringify(r.rotation, null, 2) : rotationView(r.rotation));
      return EXIT.ok;
    }
    case 'step': {
      if (!id || !step) throw new UsageError('secrets step <rotationId> restart-consumers|verify|delete-old-secret');
      const r = await api.call(
        'POST',
        `/rotations/${encodeURIComponent(id)}/steps/${step}`,
        list(opt(args, 'consumers')) ? { consumers: list(opt(args, 'consumers')) } : {},
      );
      out(json(args) ? JSON.stringify(r.rotation, null, 2) : rotationView(r.rotation));
      return EXIT.ok;
    }
    case 'rollback': {
      if (!id) throw new UsageError('secrets rollback <rotationId>');
      const r = await api.call('POST', `/rotations/${encodeURIComponent(id)}/rollback`);
      out(json(args) ? JSON.stringify(r.rotation, null, 2) : rotationView(r.rotation));
      return EXIT.ok;
    }
  }
  throw new UsageError(`secrets ${action}: use list, alerts, register, rotate, rotation, step or rollback`);
};

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

const incident: Command = async (api, args, out, env) => {
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

export const IDENTITY_COMMANDS: Record<string, Command> = {
  diagnose,
  'inspect-token': inspectToken,
  probe,
  firewall,
  grant,
  rollback,
  secrets,
  incident,
};

export const IDENTITY_USAGE = `svc identity <command> [options]   (SVC_BASE_URL, SVC_TOKEN; --json for raw output)

  diagnose       --status N --code C --body TEXT|@file --identity-type T --service S
  inspect-token  --token-stdin | --token-env VAR  [--app-id --object-id --tenant-id --roles a,b --wids a,b]
  probe          --workspace WS [--client-id ID (--secret-env VAR | --secret-stdin | --refresh-token-env VAR)] [--pipeline P] [--lakehouse L --table T]
  firewall       list|check|add|remove --workspace WS [--ip IP] [--name N --start IP --end IP] [--rule ID] [--incident ID]
  grant          --workspace WS --principal OID [--role Contributor] [--type ServicePrincipal] [--incident ID] | --list
  rollback       <changeId> | --list [--incident ID]
  secrets        list | alerts | register --name --client-id --key-id --expires [--vault-secret --consumers] | rotate <credId> | rotation <rotId> | step <rotId> <step> | rollback <rotId>
  incident       list | open --title [--identity-type --principals --production-pipeline-halted ...] | show|events|close <id> | approve <id> --kind --approver [--verbal]
                 | change-request <id> <approvalId> --cr CR | snapshot <id> --policy P --file F | change <id> --kind --summary [--policy] | verify <id> --workspace --pipeline [identity options]

Exit codes: 0 ok, 1 a check found a problem, 2 usage, 3 refused by the service (4xx), 4 service unavailable (5xx, unreachable)`;
