// Turns text into the terms the lexical engine compares: lowercased words, stop words dropped, Porter stems
// (the same algorithm as the FTS5 `porter` tokenizer of skills_fts, so lexical IDF lines up with the index).
import { stemmer } from 'stemmer';

const stopWords = new Set(
  (
    'a an and are as at be been but by can do does for from has have if in into is it its of on or so such that the their ' +
    'then there these this those to was were what when which while who will with you your use used using should must may'
  ).split(' '),
);

// Stemming is the costly step and vocabularies repeat; a bounded memo keeps memory flat on any library.
const stems = new Map<string, string>();
function stem(word: string): string {
  let s = stems.get(word);
  if (s === undefined) {
    if (stems.size >= 200_000) stems.clear();
    s = stemmer(word);
    stems.set(word, s);
  }
  return s;
}

/** Words as FTS5's unicode61 tokenizer sees them: letters and digits, diacritics removed, lowercased. */
export function words(text: string): string[] {
  const folded = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
  return folded.match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Stemmed content terms in text order (repeats kept, so callers can count term frequency). */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const w of words(text)) {
    if (stopWords.has(w) || (w.length === 1 && !/\d/.test(w))) continue;
    out.push(stem(w));
  }
  return out;
}

export function termCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of terms(text)) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}
