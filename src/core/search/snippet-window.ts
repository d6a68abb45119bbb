// The snippet of a search hit, chosen here from FTS5's highlight() of each column. FTS5's own snippet() scores every
// match against every other (quadratic in the matches): one untrusted skill repeating a searched word 20,000 times
// held every search for that word 14 s, and a two-word phrase 36 s. highlight() is linear; the window is picked below
// in one pass per match, the way snippet() picks it: the most distinct matched words, then the most matches, then the
// first such window and column.
export const highlightStart = '\u0002';
export const highlightEnd = '\u0003';

interface Token {
  start: number;
  end: number;
  word: string;
  matched: boolean;
}

const wordPattern = /[\p{L}\p{N}]+/gu;

function tokensOf(text: string): Token[] {
  const tokens: Token[] = [];
  let inside = false;
  let scanned = 0;
  for (const m of text.matchAll(wordPattern)) {
    for (; scanned < m.index; scanned++) {
      const ch = text[scanned];
      if (ch === highlightStart) inside = true;
      else if (ch === highlightEnd) inside = false;
    }
    tokens.push({ start: m.index, end: m.index + m[0].length, word: m[0].toLowerCase(), matched: inside });
  }
  return tokens;
}

interface Window {
  column: number;
  first: number;
  score: number;
}

function bestWindow(tokens: Token[], size: number, column: number): Window | null {
  let best: Window | null = null;
  for (let i = 0; i < tokens.length; i++) {
    if (!tokens[i]!.matched) continue;
    const first = Math.max(0, Math.min(i, tokens.length - size));
    const distinct = new Set<string>();
    let count = 0;
    for (let j = first; j < Math.min(tokens.length, first + size); j++)
      if (tokens[j]!.matched) {
        distinct.add(tokens[j]!.word);
        count++;
      }
    const score = distinct.size * 1000 + count;
    if (!best || score > best.score) best = { column, first, score };
  }
  return best;
}

/** The window of `size` words with the best matches among the highlighted columns, with '…' where text was cut. */
export function snippetOfColumns(columns: readonly string[], size = 16): string {
  const tokenized = columns.map(tokensOf);
  let best: Window | null = null;
  tokenized.forEach((tokens, column) => {
    const w = bestWindow(tokens, size, column);
    if (w && (!best || w.score > best.score)) best = w;
  });
  const chosen = best as Window | null;
  if (!chosen) return '';
  const text = columns[chosen.column]!;
  const tokens = tokenized[chosen.column]!;
  const last = Math.min(tokens.length, chosen.first + size) - 1;
  const cutBefore = chosen.first > 0;
  const cutAfter = last < tokens.length - 1;
  let from = cutBefore ? tokens[chosen.first]!.start : 0;
  if (cutBefore && text[from - 1] === highlightStart) from--;
  let to = cutAfter ? tokens[last]!.end : text.length;
  if (cutAfter && text[to] === highlightEnd) to++;
  let body = text.slice(from, to);
  if (tokens[chosen.first]!.matched && !body.startsWith(highlightStart) && cutBefore)
    body = highlightStart + body;
  if (body.lastIndexOf(highlightStart) > body.lastIndexOf(highlightEnd)) body += highlightEnd;
  return `${cutBefore ? '…' : ''}${body}${cutAfter ? '…' : ''}`;
}
