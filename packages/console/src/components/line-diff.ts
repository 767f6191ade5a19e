/**
 * A line diff of two texts in unified form (' ', '-', '+' prefixes), keeping `context` unchanged lines around each
 * change: enough to read where a user's edit and a new version differ inside a large value.
 */
export function lineDiff(from: string, to: string, labels: [string, string], context = 2): string {
  const a = from.split('\n');
  const b = to.split('\n');
  // Longest common subsequence table, from the end: small values (a conflict's part), so quadratic is fine.
  const width = b.length + 1;
  const table = new Int32Array((a.length + 1) * width);
  const lcs = (i: number, j: number) => table[i * width + j] ?? 0;
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      table[i * width + j] = a[i] === b[j] ? lcs(i + 1, j + 1) + 1 : Math.max(lcs(i + 1, j), lcs(i, j + 1));
  const lines: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push(` ${a[i]}`);
      i++;
      j++;
    } else if (i < a.length && (j === b.length || lcs(i + 1, j) >= lcs(i, j + 1))) lines.push(`-${a[i++]}`);
    else lines.push(`+${b[j++]}`);
  }
  const keep = lines.map((_, k) => lines.slice(Math.max(0, k - context), k + context + 1).some((l) => l[0] !== ' '));
  const out: string[] = [`--- ${labels[0]}`, `+++ ${labels[1]}`];
  lines.forEach((l, k) => {
    if (keep[k]) out.push(l);
    else if (keep[k - 1]) out.push('@@');
  });
  return out.join('\n');
}
