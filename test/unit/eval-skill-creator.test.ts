// skill-creator's evals.json and trigger query sets: told apart from JSONL by their content, read into label items with
// stable ids, every bad entry named by its index (quoting nothing), and written back from a label set for one skill.
import { describe, expect, it } from 'vitest';
import { exportLabels } from '../../src/core/eval/label-export';
import { parseLabelText } from '../../src/core/eval/label-text';
import {
  isSkillCreatorText,
  parseSkillCreatorJson,
  toSkillCreatorEvals,
  toTriggerQueries,
} from '../../src/core/eval/skill-creator-format';
import type { LabelItem } from '../../src/shared/api';

const evalsJson = JSON.stringify(
  {
    skill_name: 'pdf',
    evals: [
      {
        id: 1,
        prompt: 'Fill in the form fields of tax.pdf',
        expected_output: 'A filled PDF',
        files: ['evals/files/tax.pdf'],
        expectations: ['The output has every field filled'],
      },
      { id: 7, prompt: 'Merge a.pdf and b.pdf into one file', expected_output: 'One PDF' },
    ],
  },
  null,
  2,
);

const triggerArray = JSON.stringify([
  { query: 'extract the tables from this pdf', should_trigger: true },
  { query: 'write a haiku about autumn', should_trigger: false },
  { query: 'rotate page 3 of the scan', should_trigger: true },
]);

const errorOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e as { code: string; message: string; details?: { errors: { index: number; message: string }[] } };
  }
  throw new Error('expected an error');
};

describe('telling the formats apart', () => {
  it('reads a JSON array or an object with evals as skill-creator, JSONL (one object a line) as ours', () => {
    expect(isSkillCreatorText(evalsJson)).toBe(true);
    expect(isSkillCreatorText(triggerArray)).toBe(true);
    expect(isSkillCreatorText('\uFEFF{"evals": []}')).toBe(true);
    expect(
      isSkillCreatorText('{"id":"a","task":"t","gold":["x"]}\n{"id":"b","task":"t","gold":["x"]}\n'),
    ).toBe(false);
    // One JSONL line is one JSON object too, but not one with evals.
    expect(isSkillCreatorText('{"id":"a","task":"t","gold":["x"]}')).toBe(false);
    // Pretty-printed JSON with a syntax error is still skill-creator's, so the error is said once.
    expect(isSkillCreatorText('{\n  "evals": [\n    {"prompt": "x",}\n  ]\n}')).toBe(true);
    expect(parseLabelText('{"id":"a","task":"t","gold":["x"]}').format).toBe('jsonl');
    expect(parseLabelText(triggerArray, { skill: 'pdf' }).format).toBe('triggers');
  });
});

describe('reading', () => {
  it('turns evals.json into one task per prompt with the skill as its only gold, ids from the file', () => {
    const file = parseSkillCreatorJson(evalsJson);
    expect(file).toEqual({
      format: 'evals',
      skill: 'pdf',
      items: [
        { id: 'pdf-eval-1', task: 'Fill in the form fields of tax.pdf', gold: ['pdf'] },
        { id: 'pdf-eval-7', task: 'Merge a.pdf and b.pdf into one file', gold: ['pdf'] },
      ],
    });
  });

  it('turns should_trigger true into gold, false into avoid, for the skill given or the folder', () => {
    const file = parseSkillCreatorJson(triggerArray, { skill: 'pdf' });
    expect(file.format).toBe('triggers');
    expect(file.items).toEqual([
      { id: 'pdf-trigger-1', task: 'extract the tables from this pdf', gold: ['pdf'] },
      { id: 'pdf-trigger-2', task: 'write a haiku about autumn', gold: [], avoid: ['pdf'] },
      { id: 'pdf-trigger-3', task: 'rotate page 3 of the scan', gold: ['pdf'] },
    ]);
    // The object form, with prompt instead of query; the skill from the folder above evals/.
    const object = JSON.stringify({
      evals: [
        { prompt: 'Improve this SKILL.md description', should_trigger: true },
        { prompt: 'Write a fibonacci function', should_trigger: false },
      ],
    });
    const fromFolder = parseSkillCreatorJson(object, { folderSkill: 'skill-creator' });
    expect(fromFolder.items.map((i) => [i.id, i.gold, i.avoid])).toEqual([
      ['skill-creator-trigger-1', ['skill-creator'], undefined],
      ['skill-creator-trigger-2', [], ['skill-creator']],
    ]);
    // skill_name in the file comes first; the given name beats the folder's.
    expect(parseSkillCreatorJson(object, { skill: 'mine', folderSkill: 'folder' }).skill).toBe('mine');
    expect(
      parseSkillCreatorJson(
        JSON.stringify({ skill_name: 'pdf', evals: [{ query: 'q', should_trigger: true }] }),
        {
          folderSkill: 'folder',
        },
      ).skill,
    ).toBe('pdf');
  });

  it('gives the same ids to the same file every time (a re-import updates, not duplicates)', () => {
    expect(parseSkillCreatorJson(triggerArray, { skill: 'pdf' })).toEqual(
      parseSkillCreatorJson(triggerArray, { skill: 'pdf' }),
    );
  });

  it('names every bad entry by its index, quoting none of it, and imports nothing', () => {
    const bad = JSON.stringify({
      evals: [
        { query: 'fine', should_trigger: true },
        { query: '   ', should_trigger: true },
        { query: 'sk-secret-0123', should_trigger: 'yes' },
        'sk-secret-string',
        { text: 'sk-secret-wrong-key', should_trigger: false },
      ],
    });
    const e = errorOf(() => parseSkillCreatorJson(bad, { skill: 'pdf' }));
    expect(e.code).toBe('VALIDATION_FAILED');
    expect(e.details!.errors.map((x) => x.index)).toEqual([1, 2, 3, 4]);
    expect(e.message).toContain('evals[1]: query must be a non-empty string');
    expect(e.message).toContain('evals[2]: should_trigger must be true or false');
    expect(e.message).toContain('evals[3]: expected an object');
    expect(e.message).toContain('evals[4]: needs "query" or "prompt"');
    expect(JSON.stringify({ m: e.message, d: e.details })).not.toContain('sk-secret');

    const evals = errorOf(() =>
      parseSkillCreatorJson(
        JSON.stringify({
          skill_name: 'pdf',
          evals: [
            { id: 1, prompt: 'a' },
            { id: 1, prompt: 'b' },
            { id: 2.5, prompt: 'c' },
          ],
        }),
      ),
    );
    expect(evals.details!.errors).toEqual([
      { index: 1, message: 'id appears twice' },
      { index: 2, message: 'id must be an integer' },
    ]);
  });

  it('refuses an unknown shape, an empty list, and a trigger set for no skill', () => {
    expect(errorOf(() => parseSkillCreatorJson('{"evals": {"a": 1}}')).message).toMatch(
      /Not a skill-creator file/,
    );
    expect(errorOf(() => parseSkillCreatorJson('[]', { skill: 'pdf' })).message).toMatch(/no evals/);
    const unnamed = errorOf(() => parseSkillCreatorJson(triggerArray));
    expect(unnamed.code).toBe('INVALID_ARGUMENT');
    expect(unnamed.message).toMatch(/--skill NAME/);
    expect(errorOf(() => parseSkillCreatorJson(evalsJson, { skill: 'docx' })).code).toBe('INVALID_ARGUMENT');
    expect(errorOf(() => parseSkillCreatorJson('{\n "evals": [,]\n}')).message).toMatch(/not valid JSON/);
  });
});

describe('writing back', () => {
  const set: LabelItem[] = [
    { id: 'pdf-eval-1', task: 'Fill in the form fields of tax.pdf', gold: ['pdf'] },
    { id: 'own', task: 'Split the scan into pages', gold: ['pdf'] },
    { id: 'two', task: 'Turn the doc into a pdf', gold: ['docx', 'pdf'] },
    { id: 'neg', task: 'write a haiku', gold: [], avoid: ['pdf'] },
    { id: 'other', task: 'edit the docx', gold: ['docx'], avoid: ['pdf'] },
  ];

  it('writes evals.json from the items whose gold is exactly the skill, keeping ids that came from one', () => {
    const json = JSON.parse(toSkillCreatorEvals(set, 'pdf')) as {
      skill_name: string;
      evals: { id: unknown; prompt: string }[];
    };
    expect(json.skill_name).toBe('pdf');
    expect(json.evals.map((e) => [e.id, e.prompt])).toEqual([
      [1, 'Fill in the form fields of tax.pdf'],
      [2, 'Split the scan into pages'],
    ]);
    expect(() => toSkillCreatorEvals(set, 'xlsx')).toThrow(/exactly xlsx/);
  });

  it('writes trigger queries: gold names the skill → true, avoid names it → false', () => {
    expect(JSON.parse(toTriggerQueries(set, 'pdf'))).toEqual([
      { query: 'Fill in the form fields of tax.pdf', should_trigger: true },
      { query: 'Split the scan into pages', should_trigger: true },
      { query: 'Turn the doc into a pdf', should_trigger: true },
      { query: 'write a haiku', should_trigger: false },
      { query: 'edit the docx', should_trigger: false },
    ]);
  });

  it('round-trips both formats', () => {
    const evals = parseSkillCreatorJson(evalsJson).items;
    expect(parseSkillCreatorJson(toSkillCreatorEvals(evals, 'pdf')).items).toEqual(evals);
    const triggers = parseSkillCreatorJson(triggerArray, { skill: 'pdf' }).items;
    expect(parseSkillCreatorJson(toTriggerQueries(triggers, 'pdf'), { skill: 'pdf' }).items).toEqual(
      triggers,
    );
    // String ids survive too.
    const named = parseSkillCreatorJson(
      JSON.stringify({ skill_name: 'pdf', evals: [{ id: 'merge', prompt: 'm' }] }),
    ).items;
    expect(parseSkillCreatorJson(toSkillCreatorEvals(named, 'pdf')).items).toEqual(named);
  });

  it('picks the skill when the set has only one, and asks for it otherwise', () => {
    const triggers = parseSkillCreatorJson(triggerArray, { skill: 'pdf' }).items;
    expect(exportLabels('pdf-triggers', triggers, 'triggers')).toMatchObject({
      skill: 'pdf',
      fileName: 'pdf-triggers.json',
      items: 3,
    });
    expect(exportLabels('my set/1', triggers, 'jsonl').fileName).toBe('my-set-1.jsonl');
    expect(() => exportLabels('mixed', set, 'triggers')).toThrow(/the set has 2, docx, pdf/);
    expect(exportLabels('mixed', set, 'evals', 'docx')).toMatchObject({ fileName: 'evals.json', items: 1 });
  });
});
