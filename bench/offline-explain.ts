// Why does the offline scorer prefer one skill to another for a query? Prints the query's terms with their IDF, then
// per named skill r, z and the BM25F raw score, and each query term's count in the skill's name / description / body
// (as the cross-scorer reads them: words in example lists at exampleWeight). Over the zjunlp collection with
// resources/zjunlp-states.jsonl, or the sample library (--sample), as bench/offline-diagnose.ts builds it.
// Run: npx tsx bench/offline-explain.ts [--sample] "Find the apple and pick it up." alfworld-object-locator alfworld-tool-user
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  calibratedScore,
  queryTerms,
  scoredDocument,
} from '../src/core/models/lexical/lexical-cross-encoder';
import { fields } from '../src/core/models/lexical/library-index';
import { libraryIndex } from '../src/core/models/lexical/library-index-cache';
import { skillDocument } from '../src/core/select/documents';
import { importSource } from '../src/core/skills/importer';
import { zjunlpImportSettings } from './offline-targets';
import { importStatesFile } from '../src/core/states/import-states';
import { openDb } from '../src/core/store/db';

const repoRoot = path.resolve(import.meta.dirname, '..');
const resources = path.join(repoRoot, 'resources');
const sample = process.argv.includes('--sample');
const [query, ...names] = process.argv.slice(2).filter((a) => a !== '--sample');
if (!query || names.length === 0) {
  console.error(
    'usage: npx tsx bench/offline-explain.ts [--sample] "query text" skill-name [skill-name ...]',
  );
  process.exit(2);
}
const library = sample
  ? path.join(resources, 'sample-library')
  : path.resolve(repoRoot, '../shared/data/zjunlp-skills');
const clock = (): Date => new Date();
const noop = (): void => {};
const dir = mkdtempSync(path.join(os.tmpdir(), 'offline-explain-'));
const db = openDb(path.join(dir, 'library.db'));
try {
  await importSource(
    { db, clock, logger: { info: noop, warn: noop } },
    { path: library },
    { signal: new AbortController().signal, report: noop },
    sample ? {} : { settings: zjunlpImportSettings },
  );
  for (const states of ['sample-states.jsonl', 'zjunlp-states.jsonl'])
    await importStatesFile(db, clock, { path: path.join(resources, states), verify: true });
  const index = libraryIndex(db);
  const q = queryTerms(query);
  console.log(
    `terms (idf): ${q.distinct.map((t) => `${t} ${index.documents.idf(t).toFixed(2)}`).join(', ')}`,
  );
  console.log('skill                                     r      z   raw  | term[name/description/body]');
  const find = db.prepare('SELECT id, name, description, body FROM skills WHERE name = ?');
  for (const name of names) {
    const row = find.get(name) as { id: number; name: string; description: string; body: string } | undefined;
    if (!row) {
      console.log(`${name}: no such skill`);
      continue;
    }
    const doc = scoredDocument(skillDocument(row), index);
    const s = calibratedScore(index, q, doc);
    const counts = q.distinct
      .map((t) => `${t}[${fields.map((f) => doc.fields![f].counts.get(t) ?? 0).join('/')}]`)
      .join(' ');
    console.log(
      `${name.padEnd(40)} ${s.r.toFixed(2).padStart(5)} ${s.z.toFixed(2).padStart(6)} ${s.raw.toFixed(2).padStart(5)} | ${counts}`,
    );
  }
} finally {
  db.close();
  rmSync(dir, { recursive: true, force: true });
}
