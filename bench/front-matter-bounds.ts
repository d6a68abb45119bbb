// How long one SKILL.md's front matter can hold the importing thread: a typical skill, the worst valid front matter
// under the bound (many keys, deep flow nesting), hostile ones that are refused (990 KB of keys, aliases that expand),
// and yaml's own quadratic duplicate-key check on the same keys, for reference. Times are the best of --runs.
// Run: npx tsx bench/front-matter-bounds.ts [--runs 5]
import { parseArgs } from 'node:util';
import { parseDocument } from 'yaml';
import { frontMatterMaxBytes, splitFrontMatter } from '../src/core/skills/front-matter';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Number(args.runs);

function best(run: () => unknown): number {
  let min = Infinity;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    run();
    min = Math.min(min, performance.now() - t);
  }
  return min;
}

const skill = (fm: string) => `---\n${fm}\n---\n\n# Body\n`;
const keys = (n: number) => Array.from({ length: n }, (_, i) => `k${i}: v`).join('\n');
const underCap = (make: (n: number) => string) => {
  let n = 16;
  while (Buffer.byteLength(make(n * 2)) < frontMatterMaxBytes - 200) n *= 2;
  while (Buffer.byteLength(make(n + 64)) < frontMatterMaxBytes - 200) n += 64;
  return make(n);
};
const typical = skill(
  'name: pdf-tools\ndescription: Extract text and tables from PDF files, fill forms, merge documents.\nlicense: MIT\nmetadata:\n  author: someone\n  version: "1.2"',
);
const manyKeys = underCap((n) => `name: a\ndescription: d\n${keys(n)}`);
const deepFlow = underCap((n) => `name: a\ndescription: d\nx: ${'['.repeat(n)}${']'.repeat(n)}`);
const hugeKeys = skill(`name: a\ndescription: d\n${keys(100_000)}`);
const aliases = skill(
  `name: a\ndescription: d\nbig: &big ${'x'.repeat(20_000)}\n${Array.from({ length: 99 }, (_, i) => `a${i}: *big`).join('\n')}`,
);

const rows: [string, number, number, string][] = [];
const measure = (label: string, text: string) => {
  let outcome = '';
  const ms = best(() => {
    const r = splitFrontMatter(text, 'SKILL.md');
    outcome = r.ok ? 'kept' : r.issues[0]!.rule;
  });
  rows.push([label, Buffer.byteLength(text), ms, outcome]);
};
measure('typical skill', typical);
measure('many keys, under the bound', skill(manyKeys));
measure('deep flow nesting, under the bound', skill(deepFlow));
measure('990 KB of keys (refused)', hugeKeys);
measure('99 aliases of 20 KB (refused)', aliases);
const reference = rows[0]![2];
console.log(`front matter bound: ${frontMatterMaxBytes} bytes; best of ${runs}`);
for (const [label, bytes, ms, outcome] of rows)
  console.log(
    `${label.padEnd(36)} ${String(bytes).padStart(8)} B  ${ms.toFixed(2).padStart(8)} ms  ${(ms / reference).toFixed(0).padStart(6)}x typical  ${outcome}`,
  );
const quadratic = best(() => parseDocument(manyKeys, { uniqueKeys: true }));
const linear = best(() => parseDocument(manyKeys, { uniqueKeys: false }));
console.log(
  `yaml uniqueKeys on the same ${manyKeys.split('\n').length} keys: ${quadratic.toFixed(1)} ms, without it ${linear.toFixed(1)} ms (${(quadratic / linear).toFixed(1)}x)`,
);
