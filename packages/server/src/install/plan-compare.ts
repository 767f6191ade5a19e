import type { LiveParts } from '../item-types/descriptor.js';
import { unifiedDiff } from '../provisioning/line-diff.js';

/** A part's text as compared: JSON re-indented the same way on both sides (a service may answer it reformatted), trimmed. */
function normalized(text: string): string {
  const t = text.replace(/\r\n/g, '\n').trim();
  if (!/^[[{]/.test(t)) return t;
  try {
    return JSON.stringify(JSON.parse(t), null, 2);
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
