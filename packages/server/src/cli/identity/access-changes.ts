import { EXIT } from '../api.js';
import { opt, UsageError } from '../args.js';
import { table } from '../table.js';
import { type Command, json } from './options.js';

// Changes to a workspace's access (firewall rules, role assignments), each recorded and undone by `rollback`.

/** `svc identity firewall`: list, check, add or remove a workspace's firewall rules. */
export const firewall: Command = async (api, args, out) => {
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

/** `svc identity grant`: list or grant a workspace's role assignments. */
export const grant: Command = async (api, args, out) => {
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

/** `svc identity rollback`: list recorded changes, or undo one. */
export const rollback: Command = async (api, args, out) => {
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
