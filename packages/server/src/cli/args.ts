/** Parsed command line: positionals and --options (a bare --flag is true). */
export interface Args {
  positionals: string[];
  options: Record<string, string | true>;
}

/** Parses `a b --key value --flag --key=value`. */
export function parseArgs(argv: string[]): Args {
  const positionals: string[] = [];
  const options: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) {
      positionals.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    if (eq > 0) options[a.slice(2, eq)] = a.slice(eq + 1);
    else if (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('--')) options[a.slice(2)] = argv[++i]!;
    else options[a.slice(2)] = true;
  }
  return { positionals, options };
}

/** A usage mistake: exit code 2. */
export class UsageError extends Error {}

/** The string value of an option, or a UsageError naming it when required and absent. */
export function opt(args: Args, name: string, required: true): string;
export function opt(args: Args, name: string, required?: false): string | undefined;
export function opt(args: Args, name: string, required = false): string | undefined {
  const v = args.options[name];
  if (typeof v === 'string') return v;
  if (required) throw new UsageError(`--${name} is required`);
  return undefined;
}
