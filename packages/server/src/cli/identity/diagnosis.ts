import fs from 'node:fs';
import { EXIT } from '../api.js';
import { opt, UsageError } from '../args.js';
import { fields, table } from '../table.js';
import { type Command, json, list, probeBody, secretFrom } from './options.js';

// Read-only checks: what a failure means, what a token claims, what an identity can reach.

/** `svc identity diagnose`: the likely causes and first checks of a failure's status, code and body. */
export const diagnose: Command = async (api, args, out) => {
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

/** `svc identity inspect-token`: a token's claims against what they should be. */
export const inspectToken: Command = async (api, args, out, env) => {
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

/** `svc identity probe`: what an identity can reach in a workspace. */
export const probe: Command = async (api, args, out, env) => {
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
