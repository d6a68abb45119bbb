// The reference the recall's own top-1 is held to (issue 26): plain BM25 over each skill's name and description as
// one text, written apart from the product's index (no fields, no feedback, no near-duplicate folding), on the same
// terms the lexical engines read (text-terms.ts). k1 1.2, b 0.75, the idf of Robertson and Walker with +1.
import { termCounts } from '../src/core/models/lexical/text-terms';

export interface PlainDoc {
  name: string;
  description: string;
}

export class PlainBm25 {
  private readonly docs: Map<string, number>[];
  private readonly lengths: number[];
  private readonly df = new Map<string, number>();
  private readonly averageLength: number;

  constructor(
    private readonly items: readonly PlainDoc[],
    private readonly k1 = 1.2,
    private readonly b = 0.75,
  ) {
    this.docs = items.map((d) => termCounts(`${d.name.replace(/[-_]/g, ' ')} ${d.description}`));
    this.lengths = this.docs.map((d) => [...d.values()].reduce((s, n) => s + n, 0));
    for (const d of this.docs) for (const t of d.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
    this.averageLength = Math.max(1, this.lengths.reduce((s, n) => s + n, 0) / Math.max(1, items.length));
  }

  /** The names of the first k skills for the query, best first; ties by name. */
  top(query: string, k: number): string[] {
    const n = this.items.length;
    const terms = [...termCounts(query).keys()];
    const scored: { name: string; score: number }[] = [];
    this.docs.forEach((doc, i) => {
      let score = 0;
      for (const t of terms) {
        const tf = doc.get(t);
        if (!tf) continue;
        const df = this.df.get(t)!;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        const norm = 1 - this.b + (this.b * this.lengths[i]!) / this.averageLength;
        score += (idf * tf * (this.k1 + 1)) / (tf + this.k1 * norm);
      }
      if (score > 0) scored.push({ name: this.items[i]!.name, score });
    });
    return scored
      .sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : 1))
      .slice(0, k)
      .map((s) => s.name);
  }
}
