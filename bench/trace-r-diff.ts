// The r of two recorded selection traces (bench:selection --record-traces) compared pair by pair: pairs in both,
// pairs in one only, max |Δr|, whether every shared r is equal bit for bit, and whether the answers are the same.
// Run: npx tsx bench/trace-r-diff.ts A.trace.json B.trace.json [--json]
import { readFileSync } from 'node:fs';
import type { SelectionTrace } from '../src/core/select/trace-types';

const [a, b] = process.argv.slice(2).filter((x) => !x.startsWith('--'));
if (!a || !b) throw new Error('usage: npx tsx bench/trace-r-diff.ts A.trace.json B.trace.json [--json]');
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as SelectionTrace;
const rOf = (t: SelectionTrace) =>
  new Map(t.scores.map((s) => [`${s.use}|${s.version}|${s.query}|${JSON.stringify(s.doc)}`, s.r]));
const [ta, tb] = [read(a), read(b)];
const [ra, rb] = [rOf(ta), rOf(tb)];
let shared = 0;
let maxAbs = 0;
let bitEqual = true;
for (const [k, r] of ra) {
  const other = rb.get(k);
  if (other === undefined) continue;
  shared++;
  maxAbs = Math.max(maxAbs, Math.abs(r - other));
  if (!Object.is(r, other)) bitEqual = false;
}
const out = {
  pairs: [ra.size, rb.size],
  shared,
  onlyIn: [ra.size - shared, rb.size - shared],
  maxAbsDiff: maxAbs,
  bitEqual,
  answers: [ta.answer.map((x) => x.name), tb.answer.map((x) => x.name)],
  sameAnswer: JSON.stringify(ta.answer.map((x) => x.name)) === JSON.stringify(tb.answer.map((x) => x.name)),
  stages: [ta.stages.length, tb.stages.length],
};
console.log(process.argv.includes('--json') ? JSON.stringify(out) : JSON.stringify(out, null, 2));
