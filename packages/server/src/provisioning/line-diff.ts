// A unified line diff, enough to show an admin what a plan would change in a definition part, a SQL object or an index field.

type Op = { kind: ' ' | '-' | '+'; line: string };

/** Above this many line pairs the longest common subsequence is not computed: the part is shown as replaced whole. */
const MAX_CELLS = 4_000_000;
const CONTEXT = 3;

/** The edit script from `a` to `b` (longest common subsequence of lines). */
function editScript(a: string[], b: string[]): Op[] {
  if (a.length * b.length > MAX_CELLS)
    return [...a.map((line) => ({ kind: '-' as const, line })), ...b.map((line) => ({ kind: '+' as const, line }))];
  // lcs[i][j]: the length of the longest common subsequence of a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i]! });
      i++;
      j++;
    } else if (i < a.length && (j === b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) ops.push({ kind: '-', line: a[i++]! });
    else ops.push({ kind: '+', line: b[j++]! });
  }
  return ops;
}

const lines = (text: string) => (text === '' ? [] : text.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n'));

/**
 * The unified diff (`---`/`+++` headers, `@@` hunks with three lines of context) that turns `before` into `after`, or
 * undefined when they hold the same lines.
 */
export function unifiedDiff(before: string, after: string, names: { from: string; to: string }): string | undefined {
  const a = lines(before);
  const b = lines(after);
  // The same lines (what an install's check of a definition it sent before finds): no table of common subsequences.
  if (a.length === b.length && a.every((line, i) => line === b[i])) return undefined;
  const ops = editScript(a, b);
  if (ops.every((o) => o.kind === ' ')) return undefined;
  const out = [`--- ${names.from}`, `+++ ${names.to}`];
  // Positions (in `ops`) of changed lines, grouped into hunks that share context.
  const changed = ops.flatMap((o, k) => (o.kind === ' ' ? [] : [k]));
  let start = 0;
  while (start < changed.length) {
    let end = start;
    while (end + 1 < changed.length && changed[end + 1]! - changed[end]! <= 2 * CONTEXT) end++;
    const from = Math.max(0, changed[start]! - CONTEXT);
    const to = Math.min(ops.length, changed[end]! + CONTEXT + 1);
    const before = ops.slice(0, from);
    const aStart = before.filter((o) => o.kind !== '+').length;
    const bStart = before.filter((o) => o.kind !== '-').length;
    const hunk = ops.slice(from, to);
    const aLen = hunk.filter((o) => o.kind !== '+').length;
    const bLen = hunk.filter((o) => o.kind !== '-').length;
    out.push(`@@ -${aLen ? aStart + 1 : aStart},${aLen} +${bLen ? bStart + 1 : bStart},${bLen} @@`);
    for (const o of hunk) out.push(`${o.kind}${o.line}`);
    start = end + 1;
  }
  return out.join('\n');
}
