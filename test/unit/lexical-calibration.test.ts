// Properties of the calibrated lexical cross-scorer (the offline preset's r): standardised against the library's
// background for the same query, so unrelated documents are clearly negative, one filler word barely moves a score,
// length does not win, and "non-metal" is not "metal".
import { afterEach, describe, expect, it } from 'vitest';
import { createLexicalCrossEncoder } from '../../src/core/models/lexical/lexical-cross-encoder';
import { terms } from '../../src/core/models/lexical/text-terms';
import { skillDocument } from '../../src/core/select/documents';
import { openTestLibrary, type TestLibrary } from '../integration/vector-fixture';

let lib: TestLibrary;
afterEach(() => lib?.close());

const opts = { instruction: 'Judge whether the document helps' };
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

function library(): TestLibrary {
  lib = openTestLibrary();
  for (const s of household) lib.add({ ...s, body: `# ${s.name}\n\n${s.description}. Check the result.` });
  for (let i = 0; i < 25; i++)
    lib.add({
      name: `dev-tool-${i}`,
      description: `Review pull requests and write unit tests for service ${i}`,
      body: `Run the test suite, read the diff, comment on the change. Variant ${i}.`,
    });
  return lib;
}

const doc = (name: string) => {
  const s = household.find((h) => h.name === name)!;
  return skillDocument({ ...s, body: `# ${s.name}\n\n${s.description}. Check the result.` });
};

async function r(query: string, document: string): Promise<number> {
  const [score] = await createLexicalCrossEncoder(lib.db).score([{ query, document }], opts);
  return score!.r;
}

describe('calibrated lexical cross-scorer', () => {
  it('gives a document that shares no term with the query clearly negative odds', async () => {
    library();
    const unrelated = await r('heat the mug in the microwave', doc('clean-object-sink'));
    expect(sigma(unrelated)).toBeLessThan(0.1);
    const state = await r('The mug is hot', 'The pull request has a review comment');
    expect(sigma(state)).toBeLessThan(0.1);
    // ...while the document the query is about is above even odds, with odds more than 20 times the unrelated one's.
    const related = await r('heat the mug in the microwave', doc('heat-object-microwave'));
    expect(sigma(related)).toBeGreaterThan(0.5);
    expect(related - unrelated).toBeGreaterThan(Math.log(20));
  });

  it('moves a score by less than one unit of log-odds for one extra filler word', async () => {
    library();
    for (const [query, name] of [
      ['heat the mug in the microwave', 'heat-object-microwave'],
      ['brew coffee', 'make-coffee'],
      ['put the plate on the table', 'put-object-in-receptacle'],
    ] as const) {
      const plain = await r(query, doc(name));
      for (const filler of ['please', 'quickly', 'now'])
        expect(Math.abs((await r(`${query} ${filler}`, doc(name))) - plain)).toBeLessThan(1);
    }
  });

  it('does not let a long document win by length over a short one that says the same', async () => {
    library();
    const query = 'heat the mug in the microwave';
    const focused = doc('heat-object-microwave');
    // The same skill with every other skill's text appended: more words, more chances to mention the query's terms.
    const padded = `${focused}\n\n${household
      .map((h) => `${h.description}. The mug, the microwave and heat are mentioned here too.`)
      .join('\n')}\n${'Other notes about the kitchen. '.repeat(60)}`;
    expect(await r(query, padded)).toBeLessThanOrEqual(await r(query, focused));
  });

  it('gives even odds to the skill that carries out a stage, not to one that only names its object and state', async () => {
    library();
    // A stage repeats the task's object and its state ("the hot mug"), so the heating skill shares two of its words
    // and stands 3.2 sd above the library's typical score; the put skill, which does what the stage says, 3.9 sd.
    // With even odds at 3 sd (v3) both were above even odds, and stage fits above even odds hardly differ in
    // log σ, so ρ decided between them (docs/METHOD-notes.md, note 31).
    const stage = 'put the hot mug on the table';
    const put = await r(stage, doc('put-object-in-receptacle'));
    const heat = await r(stage, doc('heat-object-microwave'));
    expect(sigma(put)).toBeGreaterThan(0.5);
    expect(sigma(heat)).toBeLessThan(0.5);
  });

  it('keeps "non-metal" from matching "metal"', async () => {
    library();
    expect(terms('a non-metal container')).not.toContain('metal');
    expect(terms('a non-metal container')).toEqual(terms('a nonmetal container'));
    expect(terms('it is not metal')).toEqual(terms('it is non-metal'));
    const query = 'put the metal pot on the stove';
    const metal = await r(query, 'The agent holds a metal container.');
    const nonMetal = await r(query, 'The agent holds a non-metal container.');
    expect(metal).toBeGreaterThan(nonMetal);
    expect(sigma(nonMetal)).toBeLessThan(0.1);
  });

  it('weighs a word that only appears in an example list below the same word said plainly', async () => {
    library();
    // The zjunlp skills name their example objects ("(e.g., eggs, plants, animals)"); a stage "Find the egg and pick
    // it up" went to a living-thing identifier over the object locators. Examples count half in the scorer.
    const query = 'find the egg';
    const asExample = skillDocument({
      name: 'entity-identifier',
      description: 'Identify the living things in view (e.g., eggs, plants) and find one',
      body: 'Read the observation.',
    });
    const plain = skillDocument({
      name: 'entity-identifier',
      description: 'Identify the living things in view, eggs or plants, and find one',
      body: 'Read the observation.',
    });
    expect(await r(query, asExample)).toBeLessThan(await r(query, plain));
  });
});
