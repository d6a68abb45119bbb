// A unified diff of two small texts (a settings file before and after), for a person to read before a write: the
// changed middle between the common first and last lines, aligned by longest common subsequence, with context.

const CONTEXT = 3;

export function unifiedDiff(before: string, after: string, label: string): string {
  if (before === after) return '';
  const a = before === '' ? [] : before.replace(/\r?\n$/, '').split(/\r?\n/);
  const b = after === '' ? [] : after.replace(/\r?\n$/, '').split(/\r?\n/);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  // lcs[i][j]: the longest common subsequence of midA[i..] and midB[j..].
  const lcs = Array.from({ length: midA.length + 1 }, () => new Array<number>(midB.length + 1).fill(0));
  for (let i = midA.length - 1; i >= 0; i--)
    for (let j = midB.length - 1; j >= 0; j--)
      lcs[i]![j] = midA[i] === midB[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const body: string[] = [];
  let i = 0;
  let j = 0;
  while (i < midA.length || j < midB.length) {
    if (i < midA.length && j < midB.length && midA[i] === midB[j]) {
      body.push(` ${midA[i++]}`);
      j++;
    } else if (i < midA.length && (j === midB.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!))
      body.push(`-${midA[i++]}`); // a change reads as its old lines, then its new ones
    else body.push(`+${midB[j++]}`);
  }
  const from = Math.max(0, head - CONTEXT);
  const before3 = a.slice(from, head).map((l) => ` ${l}`);
  const after3 = a.slice(a.length - tail, a.length - tail + CONTEXT).map((l) => ` ${l}`);
  const lines = [...before3, ...body, ...after3];
  const countA = lines.filter((l) => !l.startsWith('+')).length;
  const countB = lines.filter((l) => !l.startsWith('-')).length;
  const start = (n: number, count: number): string => `${count === 0 ? n : n + 1},${count}`;
  return (
    [`--- ${label}`, `+++ ${label}`, `@@ -${start(from, countA)} +${start(from, countB)} @@`, ...lines].join(
      '\n',
    ) + '\n'
  );
}
