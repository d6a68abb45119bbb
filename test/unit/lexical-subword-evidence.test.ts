// The offline scorer's sub-word evidence (v6): two state sentences that share no word are ordered by the character
// n-grams they share ("garbage" / "garbagecan"), always below any shared word, the same to the last bit whatever the
// word or batch order, and still tied when not even an n-gram is shared (METHOD.md's tie rule then applies).
import { afterEach, describe, expect, it } from 'vitest';
import { createLexicalCrossEncoder } from '../../src/core/models/lexical/lexical-cross-encoder';
import { subwordGrams } from '../../src/core/models/lexical/subword-evidence';
import { terms } from '../../src/core/models/lexical/text-terms';
import { openTestLibrary, type TestLibrary } from '../integration/vector-fixture';

let lib: TestLibrary;
afterEach(() => lib?.close());

const opts = { instruction: 'Judge whether the document helps' };

function library(): TestLibrary {
  lib = openTestLibrary();
  lib.add({ name: 'dispose-object', description: 'Drop a held object into the garbagecan' });
  lib.add({ name: 'heat-object', description: 'Heat a held object in the microwave until it is hot' });
  // "agent" is in every sentence of the library: a shared "agent" is the weakest word evidence there is.
  for (let i = 0; i < 20; i++)
    lib.add({ name: `agent-task-${i}`, description: `The agent reviews report ${i} and files it` });
  return lib;
}

async function scores(pairs: [query: string, document: string][], version: 'v6' | 'v4' = 'v6') {
  const out = await createLexicalCrossEncoder(lib.db, version).score(
    pairs.map(([query, document]) => ({ query, document })),
    opts,
  );
  return out.map((s) => s.r);
}

// A skill's completion state, and task states that share no word with it.
const completion = 'The sponge lies in the garbagecan.';
const nearGarbage = 'The robot stands beside the garbage bin.';
const noEvidence = 'The robot holds a dish.';
// Sub-word evidence as strong as it gets: the same letters, split and joined otherwise, and no word in common.
const manyGrams = 'garbage garbage-cans spongy sponger';

describe('sub-word evidence in the offline scorer (v6)', () => {
  it('shares no word between the test sentences (the premise of the tests below)', () => {
    for (const state of [nearGarbage, noEvidence, manyGrams])
      expect(terms(state).filter((t) => terms(completion).includes(t))).toEqual([]);
  });

  it('orders two states that share no word with the skill state by their shared n-grams', async () => {
    library();
    const [near, none] = await scores([
      [nearGarbage, completion],
      [noEvidence, completion],
    ]);
    expect(near).toBeGreaterThan(none!);
    // v4 gave both the common floor, so the alignment argmax was a tie.
    const [nearV4, noneV4] = await scores(
      [
        [nearGarbage, completion],
        [noEvidence, completion],
      ],
      'v4',
    );
    expect(nearV4).toBe(noneV4);
  });

  it('keeps one shared word above any amount of sub-word evidence', async () => {
    library();
    const [subword, weakWord, twoWords] = await scores([
      [manyGrams, completion],
      ['The agent waits.', 'The agent lies down.'],
      ['The agent waits near the garbagecan.', completion],
    ]);
    const [unrelated] = await scores([[noEvidence, completion]]);
    expect(subword).toBeGreaterThan(unrelated!);
    // A single shared word, and the most common one in the library, still beats it.
    expect(weakWord).toBeGreaterThan(subword!);
    expect(twoWords).toBeGreaterThan(subword!);
  });

  it('gives "not hotter" no sub-word evidence for "hotter"', async () => {
    library();
    const negatedGrams = subwordGrams(terms('not hotter'));
    expect(subwordGrams(terms('hotter')).some((g) => negatedGrams.includes(g))).toBe(false);
    const [negated, unrelated, close] = await scores([
      ['The cup is not hotter.', 'The soup is hotter.'],
      ['The cup is colder.', 'The soup is hotter.'],
      ['The cup is hottest.', 'The soup is hotter.'],
    ]);
    expect(negated).toBe(unrelated);
    expect(close).toBeGreaterThan(unrelated!);
  });

  it('still ties states with no evidence at all, so the smaller index wins as METHOD.md says', async () => {
    library();
    const [a, b] = await scores([
      ['The robot holds a dish.', completion],
      ['The robot holds a fork.', completion],
    ]);
    expect(a).toBe(b);
  });

  it('is the same to the last bit whatever the order of words, pairs or encoders', async () => {
    library();
    const pairs: [string, string][] = [
      [nearGarbage, completion],
      ['The garbage bin stands beside the robot.', completion],
      [noEvidence, completion],
      ['spongy garbage', 'The garbagecan holds a sponge.'],
    ];
    const forward = await scores(pairs);
    const backward = (await scores([...pairs].reverse())).reverse();
    const again = await scores(pairs);
    expect(backward).toEqual(forward);
    expect(again).toEqual(forward);
    // The same words in another order: the same evidence, the same score.
    expect(forward[1]).toBe(forward[0]);
    expect(forward.every(Number.isFinite)).toBe(true);
  });
});
