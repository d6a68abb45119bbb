// The lexical cross-scorer: log-odds-like r(a, b) from IDF-weighted term overlap, so selection runs without models.
import { afterEach, describe, expect, it } from 'vitest';
import {
  createLexicalCrossEncoder,
  lexicalCrossEncoderId,
} from '../../src/core/models/lexical/lexical-cross-encoder';
import { openTestLibrary, type TestLibrary } from '../integration/vector-fixture';

let lib: TestLibrary;
afterEach(() => lib?.close());

const opts = { instruction: 'Judge whether the document helps' };

function library(): TestLibrary {
  lib = openTestLibrary();
  // "data" is in every skill; "kubernetes" in one.
  for (let i = 0; i < 20; i++)
    lib.add({ name: `data-tool-${i}`, description: `Process data files, variant ${i}` });
  lib.add({ name: 'kube-deploy', description: 'Deploy data services to a Kubernetes cluster' });
  return lib;
}

const sigma = (r: number) => 1 / (1 + Math.exp(-r));

describe('lexical cross-encoder', () => {
  it('is labelled lexical', () => {
    const ce = createLexicalCrossEncoder(library().db);
    expect(ce.engine).toBe('lexical');
    expect(ce.id).toBe(lexicalCrossEncoderId);
  });

  it('scores a document sharing a rare query term above one sharing a common term', async () => {
    const ce = createLexicalCrossEncoder(library().db);
    const [rare, common] = await ce.score(
      [
        { query: 'move data onto kubernetes', document: 'Kubernetes helper for clusters' },
        { query: 'move data onto kubernetes', document: 'Data helper for clusters' },
      ],
      opts,
    );
    expect(rare!.r).toBeGreaterThan(common!.r);
  });

  it('puts no overlap below even odds and a full match above, with stems and case folded', async () => {
    const ce = createLexicalCrossEncoder(library().db);
    const [none, full] = await ce.score(
      [
        { query: 'Extracting tables from PDFs', document: 'Send an email to the team' },
        { query: 'Extracting tables from PDFs', document: 'extract the table of a pdf' },
      ],
      opts,
    );
    expect(sigma(none!.r)).toBeLessThan(0.5);
    expect(sigma(full!.r)).toBeGreaterThan(0.9);
    expect(full!.truncated).toBe(false);
  });

  it('is deterministic and independent of batch order', async () => {
    const ce = createLexicalCrossEncoder(library().db);
    const pairs = [
      { query: 'deploy to kubernetes', document: 'Kubernetes deploy tool' },
      { query: 'clean csv', document: 'Process data files' },
      { query: 'a b c', document: '' },
    ];
    const forward = await ce.score(pairs, opts);
    const backward = await ce.score([...pairs].reverse(), opts);
    const again = await createLexicalCrossEncoder(lib.db).score(pairs, opts);
    expect(backward.reverse()).toEqual(forward);
    expect(again).toEqual(forward);
    expect(forward.every((s) => Number.isFinite(s.r))).toBe(true);
  });

  it('lets the state argmax of METHOD.md pick the state a precondition talks about', async () => {
    const ce = createLexicalCrossEncoder(library().db);
    const states = [
      'The user has a PDF report',
      'The tables of the report are in a CSV file',
      'The CSV is cleaned and charted',
    ];
    const precondition = 'A CSV file with tables exists';
    const scores = await ce.score(
      states.map((s) => ({ query: s, document: precondition })),
      opts,
    );
    const r = scores.map((s) => s.r);
    expect(r.indexOf(Math.max(...r))).toBe(1);
  });

  it('honours cancellation', async () => {
    const ce = createLexicalCrossEncoder(library().db);
    const ac = new AbortController();
    ac.abort();
    await expect(ce.score([{ query: 'a', document: 'b' }], { ...opts, signal: ac.signal })).rejects.toThrow();
  });
});
