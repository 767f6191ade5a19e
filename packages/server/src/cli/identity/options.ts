import fs from 'node:fs';
import type { IdentityApi } from '../api.js';
import { opt, UsageError, type Args } from '../args.js';

/** A command of `svc identity`: answers the process exit code. */
export type Command = (api: IdentityApi, args: Args, out: Out, env: NodeJS.ProcessEnv) => Promise<number>;
type Out = (text: string) => void;

/** A comma-separated option as a list (undefined when absent). */
export const list = (v: string | undefined) =>
  v
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;

/** Whether --json asks for raw output. */
export const json = (args: Args) => args.options.json === true;

/** Reads a secret from the environment variable named by --<name>-env, or from stdin with --<name>-stdin; never from argv. */
export function secretFrom(args: Args, env: NodeJS.ProcessEnv, name: string): string | undefined {
  const variable = opt(args, `${name}-env`);
  if (variable) {
    const v = env[variable];
    if (!v) throw new UsageError(`the environment variable ${variable} is empty`);
    return v;
  }
  if (args.options[`${name}-stdin`] === true) return fs.readFileSync(0, 'utf8').trim();
  return undefined;
}

/** The body of a probe (and of an incident's verification): the identity to probe with and what to probe. */
export function probeBody(args: Args, env: NodeJS.ProcessEnv) {
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
