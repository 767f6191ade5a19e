#!/usr/bin/env node
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ApiError, EXIT, IdentityApi } from './api.js';
import { parseArgs, UsageError } from './args.js';
import { IDENTITY_COMMANDS, IDENTITY_USAGE } from './identity-commands.js';

/** Runs `svc <domain> <command> ...`; answers the process exit code. */
export async function main(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  out = (s: string) => console.log(s),
  err = (s: string) => console.error(s),
): Promise<number> {
  const [domain, command, ...rest] = argv;
  if (domain !== 'identity' || !command || command === 'help' || command === '--help') {
    (domain === 'identity' || !domain ? out : err)(IDENTITY_USAGE);
    return domain === 'identity' || !domain ? EXIT.ok : EXIT.usage;
  }
  const run = IDENTITY_COMMANDS[command];
  if (!run) {
    err(`unknown command: svc identity ${command}\n\n${IDENTITY_USAGE}`);
    return EXIT.usage;
  }
  try {
    return await run(IdentityApi.fromEnv(env), parseArgs(rest), out, env);
  } catch (e) {
    if (e instanceof UsageError) {
      err(`usage: ${e.message}`);
      return EXIT.usage;
    }
    if (e instanceof ApiError) {
      err(`error: ${e.message}${e.code ? ` [${e.code}${e.status ? `, HTTP ${e.status}` : ''}]` : ''}${e.hint ? `\nhint: ${e.hint}` : ''}`);
      return e.status === 0 && e.code === 'not_configured' ? EXIT.usage : e.exitCode;
    }
    throw e;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}
