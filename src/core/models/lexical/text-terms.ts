// Turns text into the terms the lexical engines compare: lowercased words, stop words dropped, Porter stems, and
// negation kept: "non-metal", "nonmetal" and "not metal" all become the term "nonmetal", which never matches "metal".
import { stemmer } from 'stemmer';

const stopWords = new Set(
  (
    'a an and are as at be been but by can do does for from has have if in into is it its of on or so such that the their ' +
    'then there these this those to was were what when which while who will with you your use used using should must may'
  ).split(' '),
);

// A negator makes the next content word a negated term ("not hot" -> "nonhot"); the negator itself is not a term.
const negators = new Set(['not', 'no', 'non', 'without', 'never', 'cannot', 'nor']);
export const negatedPrefix = 'non';
// "nonmetal" written as one word: the prefix is split off when what follows is a word of its own (4+ letters).
const joinedNegation = /^non(\p{L}{4,})$/u;

// Stemming is the costly step and vocabularies repeat; a bounded memo keeps memory flat on any library.
const stems = new Map<string, string>();
function stem(word: string): string {
  let s = stems.get(word);
  if (s === undefined) {
    if (stems.size >= 200_000) stems.clear();
    const joined = joinedNegation.exec(word);
    s = joined ? negatedPrefix + stemmer(joined[1]!) : stemmer(word);
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
  let negated = false;
  for (const w of words(text)) {
    if (negators.has(w)) {
      negated = true;
      continue;
    }
    if (stopWords.has(w) || (w.length === 1 && !/\d/.test(w))) continue;
    const s = stem(w);
    out.push(negated && !s.startsWith(negatedPrefix) ? negatedPrefix + s : s);
    negated = false;
  }
  return out;
}

export function termCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of terms(text)) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

/**
 * Where a text gives examples ("(e.g., eggs, plants)", "such as a mug or a cup"), the words say what a skill can be
 * applied to, not what it does: they count this much of a plain occurrence.
 */
export const exampleWeight = 0.5;
const examples =
  /\((?:e\.g\.|for example|for instance|such as)[^)]*\)|\b(?:e\.g\.|for example|for instance|such as)[^.;:()]*/giu;

/** Whether text gives examples at all (weightedTermCounts then differs from termCounts). */
export function hasExamples(text: string): boolean {
  return text.search(examples) >= 0;
}

/** Term counts with occurrences inside example lists weighted by exampleWeight. */
export function weightedTermCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (part: string, weight: number): void => {
    for (const t of terms(part)) counts.set(t, (counts.get(t) ?? 0) + weight);
  };
  let last = 0;
  for (const m of text.matchAll(examples)) {
    add(text.slice(last, m.index), 1);
    add(m[0], exampleWeight);
    last = m.index + m[0].length;
  }
  add(text.slice(last), 1);
  return counts;
}
