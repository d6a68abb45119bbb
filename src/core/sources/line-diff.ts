// A line diff (longest common subsequence) for showing what changed in a SKILL.md or a settings file. No diff library
// is installed and these files are small; inputs past a size bound fall back to "all removed, all added" rather than
// quadratic work.
export type DiffOp = 'same' | 'add' | 'del';

export interface DiffLine {
  op: DiffOp;
  text: string;
  /** 1-based line in the old text ('same' and 'del'). */
  oldLine?: number;
  /** 1-based line in the new text ('same' and 'add'). */
  newLine?: number;
}

/** Cells of the LCS table above which the diff gives up on alignment (about 16 MB of table). */
const maxCells = 4_000_000;

export function diffLines(before: string, after: string): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  // Common head and tail need no table.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const out: DiffLine[] = [];
  for (let i = 0; i < head; i++) out.push({ op: 'same', text: a[i]!, oldLine: i + 1, newLine: i + 1 });
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  for (const line of diffMiddle(midA, midB)) {
    out.push({
      ...line,
      oldLine: line.oldLine === undefined ? undefined : line.oldLine + head,
      newLine: line.newLine === undefined ? undefined : line.newLine + head,
    });
  }
  for (let i = 0; i < tail; i++) {
    const oldIndex = a.length - tail + i;
    const newIndex = b.length - tail + i;
    out.push({ op: 'same', text: a[oldIndex]!, oldLine: oldIndex + 1, newLine: newIndex + 1 });
  }
  return out;
}

function diffMiddle(a: string[], b: string[]): DiffLine[] {
  if ((a.length + 1) * (b.length + 1) > maxCells) {
    return [
      ...a.map((text, i) => ({ op: 'del' as const, text, oldLine: i + 1 })),
      ...b.map((text, j) => ({ op: 'add' as const, text, newLine: j + 1 })),
    ];
  }
  const width = b.length + 1;
  // lcs[i][j]: length of the LCS of a[i..] and b[j..].
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] =
        a[i] === b[j]
          ? lcs[(i + 1) * width + j + 1]! + 1
          : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ op: 'same', text: a[i]!, oldLine: i + 1, newLine: j + 1 });
      i++;
      j++;
    } else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) {
      out.push({ op: 'del', text: a[i]!, oldLine: i + 1 });
      i++;
    } else {
      out.push({ op: 'add', text: b[j]!, newLine: j + 1 });
      j++;
    }
  }
  for (; i < a.length; i++) out.push({ op: 'del', text: a[i]!, oldLine: i + 1 });
  for (; j < b.length; j++) out.push({ op: 'add', text: b[j]!, newLine: j + 1 });
  return out;
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Keeps changed lines with `context` unchanged lines around them; longer unchanged runs become one 'same' gap marker. */
export function diffHunks(lines: DiffLine[], context = 3): (DiffLine | { op: 'gap'; skipped: number })[] {
  const keep = lines.map(() => false);
  lines.forEach((line, index) => {
    if (line.op === 'same') return;
    for (let k = Math.max(0, index - context); k <= Math.min(lines.length - 1, index + context); k++)
      keep[k] = true;
  });
  const out: (DiffLine | { op: 'gap'; skipped: number })[] = [];
  let skipped = 0;
  lines.forEach((line, index) => {
    if (keep[index]) {
      if (skipped > 0) out.push({ op: 'gap', skipped });
      skipped = 0;
      out.push(line);
    } else skipped++;
  });
  if (skipped > 0) out.push({ op: 'gap', skipped });
  return out;
}

const unifiedMark: Record<DiffOp, string> = { same: ' ', del: '-', add: '+' };

/**
 * The diff as unified text in one hunk (a settings file before and after, for a person to read before a write): every
 * line from the first change to the last, with `context` unchanged lines around; '' when nothing changed.
 */
export function unifiedDiff(before: string, after: string, label: string, context = 3): string {
  const lines = diffLines(before, after);
  const first = lines.findIndex((l) => l.op !== 'same');
  if (first < 0) return '';
  const last = lines.findLastIndex((l) => l.op !== 'same');
  // Before the first change the two texts agree line for line, so its index is a line number in both.
  const from = Math.max(0, first - context);
  const shown = lines.slice(from, last + 1 + context);
  const countA = shown.filter((l) => l.op !== 'add').length;
  const countB = shown.filter((l) => l.op !== 'del').length;
  const start = (count: number): string => `${count === 0 ? from : from + 1},${count}`;
  return (
    [`--- ${label}`, `+++ ${label}`, `@@ -${start(countA)} +${start(countB)} @@`]
      .concat(shown.map((l) => `${unifiedMark[l.op]}${l.text}`))
      .join('\n') + '\n'
  );
}
