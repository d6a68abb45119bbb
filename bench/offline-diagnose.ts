// Where does `full` (offline preset) lose to the recall's own top-1? Per task of a set we wrote: full's answer, the
// recall's top-1, and whether each is acceptable (LOSS: full's first skill is not, the recall's is); for a loss (or
// every task with -v), each candidate's rho, edge and alignment scores, the split, and the best phi of every stage.
// Run: npx tsx bench/offline-diagnose.ts [zjunlp|sample|sample+zjunlp] [-v]
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseLabelJsonl } from '../src/core/eval/label-format';
import { createLexicalCrossEncoder } from '../src/core/models/lexical/lexical-cross-encoder';
import { lexicalRecall } from '../src/core/models/lexical/lexical-recall';
import { recallCandidates } from '../src/core/select/recall';
import { crossEncoderScoreProvider } from '../src/core/select/score-provider';
import { selectSkills } from '../src/core/select/select';
import { loadSkillsForSelection } from '../src/core/select/skill-source';
import { importSource } from '../src/core/skills/importer';
import { importStatesFile } from '../src/core/states/import-states';
import { openDb } from '../src/core/store/db';

const repoRoot = path.resolve(import.meta.dirname, '..');
const resources = path.join(repoRoot, 'resources');
const zjunlp = path.resolve(repoRoot, '../shared/data/zjunlp-skills');
const which = process.argv[2] ?? 'zjunlp';
const libs =
  which === 'zjunlp'
    ? [zjunlp]
    : which === 'sample'
      ? [path.join(resources, 'sample-library')]
      : [path.join(resources, 'sample-library'), zjunlp];
const tasksFile = which === 'zjunlp' ? 'zjunlp-tasks.jsonl' : 'sample-tasks.jsonl';
const verbose = process.argv.includes('-v');
const clock = () => new Date();
const noop = () => {};
const db = openDb(path.join(mkdtempSync(path.join(os.tmpdir(), 'diag-')), 'l.db'));
for (const lib of libs)
  await importSource(
    { db, clock, logger: { info: noop, warn: noop } },
    { path: lib },
    { signal: new AbortController().signal, report: noop },
  );
await importStatesFile(db, clock, { path: path.join(resources, 'sample-states.jsonl'), verify: true });
await importStatesFile(db, clock, { path: path.join(resources, 'zjunlp-states.jsonl'), verify: true });
const scorer = crossEncoderScoreProvider(createLexicalCrossEncoder(db));
const f = (x: number | null | undefined) => (x == null ? '  -  ' : x.toFixed(2).padStart(5));
for (const t of parseLabelJsonl(readFileSync(path.join(resources, tasksFile), 'utf8'))) {
  const ok = new Set([...t.gold, ...(t.groups ?? []).flat()]);
  const { input } = await recallCandidates(
    t.task,
    t.parse ?? null,
    30,
    (q, k) => lexicalRecall(db, q, k),
    (ids) => loadSkillsForSelection(db, ids),
  );
  const tr = await selectSkills(input, scorer, { variant: 'full', prune: false });
  const top = input.candidates[0]?.name ?? '';
  const names = tr.answer.map((a) => a.name);
  const a0 = names[0] ?? '';
  const mark = ok.has(a0) ? (ok.has(top) ? 'ok ' : 'WIN') : ok.has(top) ? 'LOSS' : 'both';
  console.log(`\n[${mark}] ${t.id} "${t.task}"  answer=${names.join(' -> ')}  recallTop=${top}`);
  if (!verbose && mark !== 'LOSS') continue;
  console.log(
    `  split=${tr.splitPoints.join(',')} nodes=` +
      tr.nodes
        .map((n) => `${n.i}:in${n.in.toFixed(2)}/out${n.out.toFixed(2)}/x${n.cross.toFixed(2)}`)
        .join(' '),
  );
  const c = tr.candidates;
  for (const cand of c.slice(0, 12))
    console.log(
      `   ${ok.has(cand.name) ? '*' : ' '} ${cand.name.padEnd(44)} rho${f(cand.rho)} ${cand.src}->${cand.tgt} src[${cand.srcScores.map((x) => x.toFixed(1)).join(' ')}] tgt[${cand.tgtScores.map((x) => (x == null ? '-' : x.toFixed(1))).join(' ')}]`,
    );
  for (const s of tr.stages) {
    const phis = [...s.phi]
      .filter((e) => e.phi != null)
      .sort((x, y) => y.phi! - x.phi!)
      .slice(0, 5);
    console.log(`  stage ${s.from}-${s.to} "${s.tau}"`);
    for (const e of phis)
      console.log(
        `     ${ok.has(c[e.candidate]!.name) ? '*' : ' '} ${c[e.candidate]!.name.padEnd(44)} rho${f(c[e.candidate]!.rho)} fit${f(e.fit)} phi${f(e.phi)}`,
      );
  }
}
