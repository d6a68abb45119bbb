// One skill's part in the library statistics (library-stats.ts): which terms its fields hold, which terms each of its
// sentences holds (name + description, then each parsed state), and the lengths the averages are made of. Stored per
// skill, so an edit takes exactly the old part out of the sums and puts the new one in.
import { bag } from './bm25';
import { fieldBags, fields, judgedFields, merge, type Row } from './library-index';
import { termCounts } from './text-terms';

export interface PartLengths {
  /** Field lengths as the recall reads them (name, description, body). */
  plain: number[];
  /** As the cross-scorer reads them (example lists weighed down). */
  judged: number[];
  /** Each sentence's length, the skill's name + description first. */
  sentences: number[];
}

export interface SkillPart {
  /** Distinct terms of name, description and body. */
  terms: string[];
  /** Distinct terms of each sentence, in the order of lengths.sentences. */
  sentences: string[][];
  lengths: PartLengths;
}

export function skillPart(row: Row, states: readonly string[]): SkillPart {
  const plain = fieldBags(row.name, row.description, row.body);
  const judged = judgedFields(row, plain);
  const summary = merge([judged.name, judged.description]);
  const stateBags = states.map((text) => bag(termCounts(text)));
  const seen = new Set<string>();
  for (const field of fields) for (const t of plain[field].counts.keys()) seen.add(t);
  return {
    terms: [...seen],
    sentences: [summary, ...stateBags].map((b) => [...b.counts.keys()]),
    lengths: {
      plain: fields.map((f) => plain[f].length),
      judged: fields.map((f) => judged[f].length),
      sentences: [summary, ...stateBags].map((b) => b.length),
    },
  };
}

/** Sorted ids as deltas in LEB128 varints: a skill's few hundred term ids in a few hundred bytes. */
export function encodeIds(lists: readonly (readonly number[])[]): Buffer {
  const out: number[] = [];
  const put = (n: number) => {
    while (n >= 0x80) {
      out.push((n & 0x7f) | 0x80);
      n = Math.floor(n / 128);
    }
    out.push(n);
  };
  for (const list of lists) {
    const sorted = [...list].sort((a, b) => a - b);
    put(sorted.length);
    let last = 0;
    for (const id of sorted) {
      put(id - last);
      last = id;
    }
  }
  return Buffer.from(out);
}

export function decodeIds(blob: Uint8Array): number[][] {
  const lists: number[][] = [];
  let at = 0;
  const get = () => {
    let n = 0;
    let scale = 1;
    for (;;) {
      const byte = blob[at++]!;
      n += (byte & 0x7f) * scale;
      if (byte < 0x80) return n;
      scale *= 128;
    }
  };
  while (at < blob.length) {
    const count = get();
    const list: number[] = [];
    let last = 0;
    for (let i = 0; i < count; i++) list.push((last += get()));
    lists.push(list);
  }
  return lists;
}
