// The fitted lexical cross-scorer of docs/METHOD-notes.md note 32 (bench/fitted-lexical/, with the recorded
// calibration-v5.json): its features say where a query's words sit in a skill, and it keeps the properties the
// product's v4 scorer is held to (test/unit/lexical-calibration.test.ts): unrelated documents get clearly negative
// log-odds, a filler word barely moves a score, "non-metal" is not "metal"; alignment is v4's own.
import { afterEach, describe, expect, it } from 'vitest';
import calibration from '../../bench/fitted-lexical/calibration-v5.json';
import { featureDocument, pairFeatures, plainTerms } from '../../bench/fitted-lexical/features';
import { createFittedLexicalCrossEncoder, type FittedCalibration } from '../../bench/fitted-lexical/scorer';
import {
  calibratedScore,
  createLexicalCrossEncoder,
  queryTerms,
  scoredDocument,
} from '../../src/core/models/lexical/lexical-cross-encoder';
import { libraryIndex } from '../../src/core/models/lexical/library-index-cache';
import { skillDocument } from '../../src/core/select/documents';
import { instructions } from '../../src/core/select/instructions';
import { openTestLibrary, type TestLibrary } from '../integration/vector-fixture';

let lib: TestLibrary;
afterEach(() => lib?.close());

const sigma = (r: number) => 1 / (1 + Math.exp(-r));
const household = [
  { name: 'heat-object-microwave', description: 'Heat a mug, cup or food in the microwave until it is hot' },
  { name: 'cool-object-fridge', description: 'Cool an object in the fridge until it is cold' },
  {
    name: 'put-object-in-receptacle',
    description: 'Put a held object on or in a receptacle such as a table',
  },
  { name: 'make-coffee', description: 'Brew coffee into a clean mug with the coffee machine' },
  { name: 'clean-object-sink', description: 'Wash a dirty object in the sink basin' },
];
const body = (name: string, description: string) => `# ${name}\n\n${description}. Check the result.`;
const doc = (name: string) => {
  const s = household.find((h) => h.name === name)!;
  return skillDocument({ ...s, body: body(s.name, s.description) });
};

function library(): TestLibrary {
  lib = openTestLibrary();
  for (const s of household) lib.add({ ...s, body: body(s.name, s.description) });
  for (let i = 0; i < 25; i++)
    lib.add({
      name: `dev-tool-${i}`,
      description: `Review pull requests and write unit tests for service ${i}`,
      body: `Run the test suite, read the diff, comment on the change. Variant ${i}.`,
    });
  return lib;
}

async function r(use: 'relevance' | 'stage-fit' | 'align', query: string, document: string): Promise<number> {
  const scorer = createFittedLexicalCrossEncoder(lib.db, calibration as FittedCalibration);
  const [score] = await scorer.score([{ query, document }], { instruction: instructions[use].text });
  return score!.r;
}

describe('fitted lexical cross-scorer (note 32)', () => {
  it('reads the words outside example lists and example sections as what a skill does', () => {
    const text =
      'Heat food (e.g., eggs) in the microwave.\n\n## Steps\nopen it\n\n## Example\ntake the apple\n\n## Notes\nclose';
    const plain = plainTerms(text);
    for (const t of ['heat', 'microwav', 'open', 'close']) expect(plain).toContain(t);
    for (const t of ['egg', 'appl', 'take']) expect(plain).not.toContain(t);
  });

  it('measures the IDF share of the query matched, in name or description, and only in examples', () => {
    library();
    const index = libraryIndex(lib.db);
    const text = skillDocument({
      name: 'heat-object-microwave',
      description: 'Heat food in the microwave',
      body: 'Open the door first.\n\n## Example\nHeat an egg until it is hot.',
    });
    const scored = scoredDocument(text, index);
    const q = queryTerms('heat hot food in the microwave');
    const f = pairFeatures(
      index,
      q.distinct,
      featureDocument(text, scored)!,
      calibratedScore(index, q, scored).z,
    );
    expect(f.cover).toBeCloseTo(1, 9);
    expect(f.head + f.exampleOnly).toBeCloseTo(1, 9);
    expect(f.exampleOnly).toBeGreaterThan(0.1); // "hot" is said only in the example
    // A sentence is not a skill document: no features, so the fitted maps do not apply to it.
    expect(featureDocument('The mug is hot', scoredDocument('The mug is hot', index))).toBeNull();
  });

  it('gives a document that shares no term with the query clearly negative odds, and the right one far higher', async () => {
    library();
    for (const use of ['relevance', 'stage-fit'] as const) {
      const unrelated = await r(use, 'heat the mug in the microwave', doc('clean-object-sink'));
      const related = await r(use, 'heat the mug in the microwave', doc('heat-object-microwave'));
      expect(sigma(unrelated)).toBeLessThan(0.1);
      expect(related - unrelated).toBeGreaterThan(Math.log(20));
    }
  });

  it('moves a score by less than one unit of log-odds for one extra filler word', async () => {
    library();
    for (const use of ['relevance', 'stage-fit'] as const)
      for (const [query, name] of [
        ['heat the mug in the microwave', 'heat-object-microwave'],
        ['brew coffee', 'make-coffee'],
        ['put the plate on the table', 'put-object-in-receptacle'],
      ] as const) {
        const plain = await r(use, query, doc(name));
        for (const filler of ['please', 'quickly', 'now'])
          expect(Math.abs((await r(use, `${query} ${filler}`, doc(name))) - plain)).toBeLessThan(1);
      }
  });

  it('keeps "non-metal" from matching "metal", and leaves alignment to the v4 scorer', async () => {
    library();
    const metal = skillDocument({
      name: 'metal-pot',
      description: 'Heat a metal pot on the stove',
      body: 'Stove.',
    });
    const nonMetal = skillDocument({
      name: 'nonmetal-pot',
      description: 'Heat a non-metal pot on the stove',
      body: 'Stove.',
    });
    for (const use of ['relevance', 'stage-fit'] as const)
      expect(await r(use, 'heat the metal pot', metal)).toBeGreaterThan(
        await r(use, 'heat the metal pot', nonMetal),
      );
    const [v4] = await createLexicalCrossEncoder(lib.db).score(
      [{ query: 'The mug is hot', document: 'The agent holds a hot mug.' }],
      { instruction: instructions.align.text },
    );
    expect(await r('align', 'The mug is hot', 'The agent holds a hot mug.')).toBe(v4!.r);
  });
});
