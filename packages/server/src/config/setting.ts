// How one environment variable is declared: its name, its README row, and how its text becomes a typed value.
// Only config.ts reads the environment; these declarations (one file per section beside this one) turn the text it
// read into values.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';

/** Thrown when an environment variable is missing or invalid; names the variable. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

/** The schemes a web address setting accepts. */
export const WEB = ['http:', 'https:'];

/** What a setting's text must be: the kinds with a validation refuse a malformed value (test/config.test.ts tries one of each). */
export type SettingKind = 'integer' | 'url' | 'choice' | 'flag' | 'pattern' | 'list' | 'text' | 'directory';

/** One environment variable. */
export interface Setting<T> {
  readonly name: string;
  readonly kind: SettingKind;
  /** README "Default" column (Markdown): the value when unset, or what decides it. */
  readonly shownDefault: string;
  /** README "Meaning" column (Markdown). */
  readonly meaning: string;
  /** The typed value of the variable's text (undefined when unset; an empty value is unset); throws ConfigError naming it. */
  parse(raw: string | undefined): T;
}

/** A group of settings read together into one typed piece of the configuration. */
export type Section = Readonly<Record<string, Setting<unknown>>>;

/** The typed values of a section's settings. */
export type Values<S extends Section> = { readonly [K in keyof S]: S[K] extends Setting<infer T> ? T : never };

interface Doc {
  /** README "Default" column when the value is not a plain literal (e.g. "the cloud's"). */
  shown?: string;
  meaning: string;
}

const code = (value: unknown) => `\`${String(value)}\``;
const NONE = '–';

function setting<T>(
  name: string,
  kind: SettingKind,
  shownDefault: string,
  meaning: string,
  parse: (raw: string | undefined) => T,
): Setting<T> {
  return { name, kind, shownDefault, meaning, parse };
}

/** A whole number within [min, max]. */
export function int(name: string, fallback: number, min: number, max: number, meaning: string): Setting<number> {
  return setting(name, 'integer', code(fallback), meaning, (raw) => {
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
    const value = Number(raw);
    if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
    return value;
  });
}

/** Free text, taken as given. */
export function text(name: string, doc: Doc): Setting<string | undefined>;
export function text(name: string, doc: Doc & { fallback: string }): Setting<string>;
export function text(name: string, doc: Doc & { fallback?: string }): Setting<string | undefined> {
  return setting(
    name,
    'text',
    doc.shown ?? (doc.fallback === undefined ? NONE : code(doc.fallback)),
    doc.meaning,
    (raw) => raw ?? doc.fallback,
  );
}

/** A service address as an operator writes it (checked where it is used, against the cloud); trailing slashes dropped. */
export function address(name: string, doc: Doc): Setting<string | undefined> {
  return setting(name, 'text', doc.shown ?? NONE, doc.meaning, (raw) => raw?.replace(/\/+$/, '') || undefined);
}

/** An absolute URL with one of the protocols; trailing slashes dropped. */
export function url(name: string, protocols: readonly string[], doc: Doc): Setting<string | undefined> {
  return setting(name, 'url', doc.shown ?? NONE, doc.meaning, (raw) => {
    if (raw === undefined) return undefined;
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      throw new ConfigError(name, `must be an absolute URL, got "${raw}"`);
    }
    if (!protocols.includes(parsed.protocol)) throw new ConfigError(name, `must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
    return raw.replace(/\/+$/, '');
  });
}

const spelled = (values: readonly string[]) =>
  values.length > 1 ? `${values.slice(0, -1).join(', ')} or ${values.at(-1)}` : values.join('');

/** One of a fixed list of words. */
export function oneOf<const V extends string>(name: string, values: readonly V[], doc: Doc): Setting<V | undefined>;
export function oneOf<const V extends string>(name: string, values: readonly V[], doc: Doc & { fallback: V }): Setting<V>;
export function oneOf<const V extends string>(name: string, values: readonly V[], doc: Doc & { fallback?: V }): Setting<V | undefined> {
  return setting(name, 'choice', doc.shown ?? (doc.fallback === undefined ? NONE : code(doc.fallback)), doc.meaning, (raw) => {
    if (raw === undefined) return doc.fallback;
    if (!(values as readonly string[]).includes(raw)) throw new ConfigError(name, `must be ${spelled(values)}, got "${raw}"`);
    return raw as V;
  });
}

/** `true` or `false` (unset: false). */
export function flag(name: string, meaning: string): Setting<boolean> {
  return setting(name, 'flag', code(false), meaning, (raw) => {
    if (raw === undefined || raw === 'false') return false;
    if (raw === 'true') return true;
    throw new ConfigError(name, `must be true or false, got "${raw}"`);
  });
}

/** Text of a given form (a token, a secret); the message says what the form is, never echoing the value. */
export function pattern(name: string, form: RegExp, refusal: string, doc: Doc): Setting<string | undefined> {
  return setting(name, 'pattern', doc.shown ?? NONE, doc.meaning, (raw) => {
    if (raw !== undefined && !form.test(raw)) throw new ConfigError(name, refusal);
    return raw;
  });
}

/** An existing directory, as an absolute path (relative paths are from the working directory). */
export function directory(name: string, doc: Doc): Setting<string | undefined> {
  return setting(name, 'directory', doc.shown ?? NONE, doc.meaning, (raw) => {
    if (raw === undefined) return undefined;
    const dir = resolve(raw);
    // Checked at start, so that a mistyped path stops the start here rather than when it is first read.
    if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory())
      throw new ConfigError(name, `must be an existing directory, got "${raw}"`);
    return dir;
  });
}

/** A comma-separated list, each entry trimmed and read by `item` (which throws ConfigError naming the variable). */
export function list<T>(name: string, item: (entry: string) => T, doc: Doc & { fallback?: readonly T[] }): Setting<T[]> {
  const fallback = doc.fallback ?? [];
  return setting(name, 'list', doc.shown ?? (fallback.length ? code(fallback.join(',')) : NONE), doc.meaning, (raw) => {
    if (raw === undefined) return [...fallback];
    return raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .map(item);
  });
}

/** Reads a section's settings from the text of its variables (empty text is unset). */
export function readSection<S extends Section>(section: S, text: (name: string) => string | undefined): Values<S> {
  const out: Record<string, unknown> = {};
  for (const [key, s] of Object.entries(section)) out[key] = s.parse(text(s.name) || undefined);
  return out as Values<S>;
}
