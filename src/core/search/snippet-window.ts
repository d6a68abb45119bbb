// The snippet of a search hit, chosen here from FTS5's highlight() of each column. FTS5's own snippet() scores every
// match against every other (quadratic in the matches): one untrusted skill repeating a searched word 20,000 times
// held every search for that word 14 s, and a two-word phrase 36 s. Here each match is looked at once, with the few
// words after it: the window of `size` words starting at a match (or the column's last `size` words) with the most
// distinct matched words, then the most matches, the first such window and column wins, as snippet() picks.
export const highlightStart = '\u0002';
export const highlightEnd = '\u0003';

const wordPattern = /[\p{L}\p{N}]+/gu;
const anyWord = /[\p{L}\p{N}]/u;

interface Window {
  column: number;
  /** Where the window's first and last words start and end in the column's text. */
  from: number;
  to: number;
  score: number;
  /** Whether the first word is inside a highlight (its start mark may lie before `from`). */
  startsInside: boolean;
}

/** Whether `pos` lies between a start mark and its end mark. */
function insideAt(text: string, pos: number): boolean {
  return text.lastIndexOf(highlightStart, pos - 1) > text.lastIndexOf(highlightEnd, pos - 1);
}

/** Scores the `size` words from `pos` on; `ended` when the text ran out first. */
function scoreFrom(
  text: string,
  pos: number,
  size: number,
): { score: number; from: number; to: number; ended: boolean } {
  wordPattern.lastIndex = pos;
  let inside = insideAt(text, pos);
  let scanned = pos;
  const distinct = new Set<string>();
  let count = 0;
  let from = -1;
  let to = pos;
  let words = 0;
  for (let m = wordPattern.exec(text); m !== null && words < size; m = wordPattern.exec(text)) {
    for (; scanned < m.index; scanned++) {
      const ch = text[scanned];
      if (ch === highlightStart) inside = true;
      else if (ch === highlightEnd) inside = false;
    }
    if (from < 0) from = m.index;
    to = m.index + m[0].length;
    scanned = to;
    if (inside) {
      distinct.add(m[0].toLowerCase());
      count++;
    }
    words++;
  }
  return { score: distinct.size * 1000 + count, from, to, ended: words < size };
}

/** Where the column's last `size` words begin. */
function tailStart(text: string, size: number): number {
  for (let span = size * 16; ; span *= 4) {
    const start = Math.max(0, text.length - span);
    const starts = [...text.slice(start).matchAll(wordPattern)].map((m) => start + m.index);
    if (starts.length >= size || start === 0) return starts[Math.max(0, starts.length - size)] ?? 0;
  }
}

function bestWindow(text: string, size: number, column: number): Window | null {
  let best: Window | null = null;
  let tail: number | undefined;
  for (let mark = text.indexOf(highlightStart); mark >= 0; mark = text.indexOf(highlightStart, mark + 1)) {
    let w = scoreFrom(text, mark, size);
    if (w.ended) w = scoreFrom(text, (tail ??= tailStart(text, size)), size);
    if (w.from >= 0 && (!best || w.score > best.score))
      best = { column, from: w.from, to: w.to, score: w.score, startsInside: insideAt(text, w.from) };
  }
  return best;
}

/** The window of `size` words with the best matches among the highlighted columns, with '…' where text was cut. */
export function snippetOfColumns(columns: readonly string[], size = 16): string {
  let best: Window | null = null;
  columns.forEach((text, column) => {
    const w = bestWindow(text, size, column);
    if (w && (!best || w.score > best.score)) best = w;
  });
  const chosen = best as Window | null;
  if (!chosen) return '';
  const text = columns[chosen.column]!;
  const cutBefore = hasWordBefore(text, chosen.from);
  const cutAfter = hasWordAfter(text, chosen.to);
  let from = cutBefore ? chosen.from : 0;
  if (cutBefore && text[from - 1] === highlightStart) from--;
  let to = cutAfter ? chosen.to : text.length;
  if (cutAfter && text[to] === highlightEnd) to++;
  let body = text.slice(from, to);
  if (cutBefore && chosen.startsInside && !body.startsWith(highlightStart)) body = highlightStart + body;
  if (body.lastIndexOf(highlightStart) > body.lastIndexOf(highlightEnd)) body += highlightEnd;
  return `${cutBefore ? '…' : ''}${body}${cutAfter ? '…' : ''}`;
}

function hasWordBefore(text: string, pos: number): boolean {
  return anyWord.test(text.slice(0, pos));
}

function hasWordAfter(text: string, pos: number): boolean {
  wordPattern.lastIndex = pos;
  return wordPattern.exec(text) !== null;
}
