import type { LiveParts } from '../item-types/descriptor.js';
import { unifiedDiff } from '../provisioning/line-diff.js';

/** A JSON value with every object's keys in sorted order (arrays keep theirs). */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortedKeys((value as Record<string, unknown>)[k])]),
    );
  return value;
}

/**
 * A part's text as compared: JSON re-indented the same way on both sides, its keys sorted (a service may answer it
 * reformatted, and stored content comes back from the database's JSON with its keys reordered), trimmed.
 */
function normalized(text: string): string {
  const t = text.replace(/\r\n/g, '\n').trim();
  if (!/^[[{]/.test(t)) return t;
  try {
    return JSON.stringify(sortedKeys(JSON.parse(t)), null, 2);
  } catch {
    return t;
  }
}

/**
 * The unified diff, part by part, from what the backing service holds (`live/<part>`) to what an install would send
 * (`install/<part>`); undefined when every part is the same. A part only one side has is diffed against nothing.
 */
export function compareParts(live: LiveParts, desired: LiveParts): string | undefined {
  const names = [...new Set([...Object.keys(desired), ...Object.keys(live)])];
  const diffs = names.flatMap((name) => {
    const d = unifiedDiff(normalized(live[name] ?? ''), normalized(desired[name] ?? ''), {
      from: name in live ? `live/${name}` : '/dev/null',
      to: name in desired ? `install/${name}` : '/dev/null',
    });
    return d ? [d] : [];
  });
  return diffs.length ? diffs.join('\n') : undefined;
}
