// Where does `full` (offline preset) lose to the recall's own top-1? Per task of a set we wrote: full's answer, the
// recall's top-1, and whether each is acceptable (LOSS: full's first skill is not, the recall's is); for a loss (or
// every task with -v), each candidate's rho, edge and alignment scores, the split, and the best phi of every stage.
// With --stages: every stage of `full` whose winner is not acceptable, against the best acceptable candidate of that
// stage: the phi margin and which term decided it (log σ(rho) or log σ(fit)), then the counts.
// With --splits: for every task split at node 1, In(1) and the part of it from edges whose completion matched no task
// state (every r(s_j, e_k) at the scorer's floor, so the tie rule put tgt_k at src_k + 1) and from edges whose
// completion matched every state equally, against Cross(1).
// --v4: with the scorer before sub-word evidence (lexical:bm25-calibrated-v4) instead of the product's v6.
// Run: npx tsx bench/offline-diagnose.ts [zjunlp|sample|sample+zjunlp] [-v] [--stages] [--splits] [--v4]
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
import { zjunlpImportSettings } from './offline-targets';
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
const stagesOnly = process.argv.includes('--stages');
const splitsOnly = process.argv.includes('--splits');
const splits = { tasks: 0, in1: 0, tied: 0, equal: 0, onlyByTies: 0, onlyByAnyTies: 0 };
const logSigma = (r: number): number => -Math.log1p(Math.exp(-r));
const decided = { rho: 0, fit: 0, noAcceptable: 0 };
const clock = () => new Date();
const noop = () => {};
const db = openDb(path.join(mkdtempSync(path.join(os.tmpdir(), 'diag-')), 'l.db'));
for (const lib of libs)
  await importSource(
    { db, clock, logger: { info: noop, warn: noop } },
    { path: lib },
    { signal: new AbortController().signal, report: noop },
    lib === zjunlp ? { settings: zjunlpImportSettings } : {},
  );
await importStatesFile(db, clock, { path: path.join(resources, 'sample-states.jsonl'), verify: true });
await importStatesFile(db, clock, { path: path.join(resources, 'zjunlp-states.jsonl'), verify: true });
const scorer = crossEncoderScoreProvider(
  createLexicalCrossEncoder(db, process.argv.includes('--v4') ? 'v4' : 'v6'),
);
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
  if (splitsOnly) {
    if (!tr.splitPoints.includes(1)) continue;
    const d = tr.nodes.length - 1;
    // The scorer's floor here: the lowest alignment score of this selection (a completion with no evidence at all).
    const floor = Math.min(
      ...tr.candidates.flatMap((c) => c.tgtScores.filter((x): x is number => x != null)),
    );
    let tied = 0;
    let equal = 0;
    for (const c of tr.candidates) {
      if (c.tgt == null || c.rho == null || c.tgt > 1) continue;
      const scores = c.tgtScores.filter((x): x is number => x != null);
      if (!scores.every((x) => x === scores[0])) continue;
      const w = 1 / (1 + Math.exp(-c.rho)) / (1 + (1 - c.tgt) / d);
      if (scores[0] === floor) tied += w;
      else equal += w;
    }
    const node = tr.nodes[1]!;
    const onlyByTies = node.in - tied <= node.cross;
    splits.tasks++;
    splits.in1 += node.in;
    splits.tied += tied;
    splits.equal += equal;
    if (onlyByTies) splits.onlyByTies++;
    if (node.in - tied - equal <= node.cross) splits.onlyByAnyTies++;
    console.log(
      `${t.id}: In(1) ${node.in.toFixed(2)}, from floor ties ${tied.toFixed(2)}, from equal-evidence ties ${equal.toFixed(2)}; Cross(1) ${node.cross.toFixed(2)}${onlyByTies ? '; no split at 1 without the floor ties' : ''}`,
    );
    continue;
  }
  if (stagesOnly) {
    for (const s of tr.stages) {
      const rows = s.phi.filter((e) => e.phi != null).sort((x, y) => y.phi! - x.phi!);
      const cand = (e: (typeof rows)[number]) => tr.candidates[e.candidate]!;
      const win = rows[0];
      if (!win || ok.has(cand(win).name)) continue;
      const gold = rows.find((e) => ok.has(cand(e).name));
      if (!gold) {
        decided.noAcceptable++;
        console.log(`${t.id} "${s.tau}": ${cand(win).name} wins; no acceptable candidate`);
        continue;
      }
      const dRho = logSigma(cand(win).rho!) - logSigma(cand(gold).rho!);
      const dFit = logSigma(win.fit!) - logSigma(gold.fit!);
      decided[dRho >= dFit ? 'rho' : 'fit']++;
      console.log(
        `${t.id} "${s.tau}": ${cand(win).name} (rho ${f(cand(win).rho)} fit ${f(win.fit)}) beats ${cand(gold).name} (rho ${f(cand(gold).rho)} fit ${f(gold.fit)}) by phi ${(win.phi! - gold.phi!).toFixed(2)}: log σ(rho) ${dRho.toFixed(2)}, log σ(fit) ${dFit.toFixed(2)}`,
      );
    }
    continue;
  }
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
if (stagesOnly)
  console.log(
    `\nstages lost: ${decided.rho} decided by rho, ${decided.fit} by the stage fit, ${decided.noAcceptable} with no acceptable candidate`,
  );
if (splitsOnly)
  console.log(
    `\n${splits.tasks} tasks split at node 1; of In(1) there, ${((100 * splits.tied) / Math.max(1e-9, splits.in1)).toFixed(0)} % from floor-tie edges (every r(s_j, e_k) at the scorer's floor: no evidence) and ${((100 * splits.equal) / Math.max(1e-9, splits.in1)).toFixed(0)} % from equal-evidence ties (the same words in every state); ${splits.onlyByTies} would not split there without the floor ties, ${splits.onlyByAnyTies} without any ties`,
  );
