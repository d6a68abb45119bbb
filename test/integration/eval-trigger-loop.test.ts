// The skill author's loop on a real library file with the offline engine: import a skill-creator trigger query set
// kept at <skill>/evals/, run, edit the skill's description in its SKILL.md and import the folder again, re-run,
// compare: the skill's trigger precision and recall move as counted by hand, and the flipped queries are named.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core';

const resources = path.resolve('resources');
let dir: string;
let library: string;
let core: Core;

const descriptions: Record<string, string> = {
  'pdf-tools': 'Merge and split PDF files.',
  'scan-archiver': 'Archive scanned documents and photos in folders by date.',
  'haiku-writer': 'Write short poems and haiku about the seasons.',
  'browser-automation': 'Click buttons, fill in web forms and browse pages online.',
};
// What the curator writes after reading the first figures: the description now names rotating scans and tax forms.
const edited =
  'Merge and split PDF files; rotate the pages of scanned documents; fill in the fields of tax forms.';

// skill-creator's trigger set for pdf-tools, without skill_name: the folder above evals/ names the skill.
const queries = [
  { query: 'merge two pdf files into one', should_trigger: true },
  { query: 'split the pdf into separate files', should_trigger: true },
  { query: 'rotate the pages of a scanned document', should_trigger: true },
  { query: 'fill in the fields of my tax form', should_trigger: true },
  { query: 'write a short poem about autumn', should_trigger: false },
  { query: 'fill in the tax form on the website', should_trigger: false },
  { query: 'archive last year photos by date', should_trigger: false },
];

const writeSkill = (name: string, description: string) => {
  mkdirSync(path.join(library, name), { recursive: true });
  writeFileSync(
    path.join(library, name, 'SKILL.md'),
    `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\n${description}\n`,
  );
};
const importLibrary = async () =>
  expect((await core['jobs.wait']({ id: (await core['library.import']({ path: library })).id })).status).toBe(
    'done',
  );
const finished = async (id: string) => {
  const done = await core['jobs.wait']({ id });
  expect(done.status).toBe('done');
  return done.result as { runId: number; baseRunId: number | null };
};

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-trigger-loop-'));
  library = path.join(dir, 'skills');
  for (const [name, description] of Object.entries(descriptions)) writeSkill(name, description);
  mkdirSync(path.join(library, 'pdf-tools', 'evals'));
  writeFileSync(
    path.join(library, 'pdf-tools', 'evals', 'trigger-eval.json'),
    JSON.stringify(queries, null, 2),
  );
  core = createCore({ dataDir: path.join(dir, 'data'), resourcesDir: resources });
  await importLibrary();
});

afterAll(async () => {
  await core.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('edit a description, re-run, watch the trigger figures move', () => {
  it('imports the trigger set for the skill its folder names, runs, edits, re-runs and compares', async () => {
    const file = path.join(library, 'pdf-tools', 'evals', 'trigger-eval.json');
    const set = await core['labels.import']({ path: file });
    expect(set).toMatchObject({
      name: 'pdf-tools-trigger-eval',
      format: 'triggers',
      skill: 'pdf-tools',
      itemCount: 7,
    });
    const items = (await core['labels.get']({ id: set.id })).items;
    // The avoid of a should-not query is kept in the library file, not only in the parsed file.
    expect(items.filter((i) => i.avoid?.includes('pdf-tools')).map((i) => i.id)).toEqual([
      'pdf-tools-trigger-5',
      'pdf-tools-trigger-6',
      'pdf-tools-trigger-7',
    ]);

    // dense@1: the recall's top skill, which reads the skill's name and description (no rho, so no abstaining).
    const first = await finished(
      (await core['eval.run']({ setId: set.id, variants: ['dense'], k: [1], preset: 'offline' })).id,
    );
    const before = await core['eval.show']({ runId: first.runId });
    // By hand: queries 1 and 2 name PDFs (triggered); 3 goes to scan-archiver, 4 to browser-automation; no
    // should-not query reaches pdf-tools. TP 2, FP 0: P = 2/2, R = 2/4.
    expect(before.triggers).toEqual([
      {
        variant: 'dense',
        k: 1,
        skills: [
          {
            skill: 'pdf-tools',
            shouldTrigger: 4,
            triggered: 2,
            shouldNot: 3,
            falselyTriggered: 0,
            precision: 1,
            recall: 0.5,
          },
        ],
      },
    ]);

    writeSkill('pdf-tools', edited);
    await importLibrary();
    const second = await finished((await core['eval.rerun']({ setId: set.id })).id);
    expect(second.baseRunId).toBe(first.runId);
    const c = await core['eval.compare']({ runId: second.runId });
    expect(c.editedSkills.map((s) => [s.name, s.changes])).toEqual([['pdf-tools', ['content-changed']]]);
    // By hand: 3 (rotate … scanned document) and 4 (tax form fields) now reach pdf-tools, and so does the should-not
    // query 6 (a tax form on a website, browser-automation's): TP 4, FP 1: P = 4/5, R = 4/4.
    expect(c.triggers).toHaveLength(1);
    const t = c.triggers![0]!;
    expect([t.variant, t.k, t.skill]).toEqual(['dense', 1, 'pdf-tools']);
    expect(t.base).toMatchObject({ triggered: 2, falselyTriggered: 0, precision: 1, recall: 0.5 });
    expect(t.current).toMatchObject({ triggered: 4, falselyTriggered: 1, precision: 0.8, recall: 1 });
    expect(t.flips).toEqual([
      {
        itemId: 'pdf-tools-trigger-3',
        task: 'rotate the pages of a scanned document',
        shouldTrigger: true,
        before: false,
        after: true,
      },
      {
        itemId: 'pdf-tools-trigger-4',
        task: 'fill in the fields of my tax form',
        shouldTrigger: true,
        before: false,
        after: true,
      },
      {
        itemId: 'pdf-tools-trigger-6',
        task: 'fill in the tax form on the website',
        shouldTrigger: false,
        before: false,
        after: true,
      },
    ]);

    // The figures are in the report's Markdown export too.
    const md = (await core['eval.export']({ runId: second.runId, format: 'markdown' })).content;
    expect(md).toContain('## Trigger figures per skill');
    expect(md).toContain('| pdf-tools | dense@1 | 4 | 4 | 3 | 1 | 80.0 | 100.0 |');
  });

  it('writes the set back as skill-creator trigger queries and evals.json, and as JSONL', async () => {
    const set = (await core['labels.list']({})).find((s) => s.name === 'pdf-tools-trigger-eval')!;
    const triggers = await core['labels.export']({ id: set.id, format: 'triggers' });
    expect(triggers).toMatchObject({ skill: 'pdf-tools', fileName: 'pdf-tools-triggers.json', items: 7 });
    expect(JSON.parse(triggers.content)).toEqual(queries);

    const out = path.join(dir, 'evals.json');
    const evals = await core['labels.export']({ id: set.id, format: 'evals', path: out });
    expect(evals.path).toBe(out);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({
      skill_name: 'pdf-tools',
      evals: [
        { id: 1, prompt: queries[0]!.query },
        { id: 2, prompt: queries[1]!.query },
        { id: 3, prompt: queries[2]!.query },
        { id: 4, prompt: queries[3]!.query },
      ],
    });
    await expect(core['labels.export']({ id: set.id, format: 'evals', path: out })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    // evals.json imported again: a set of its own, named after the skill, every prompt a should-trigger task.
    const again = await core['labels.import']({ path: out, skill: 'pdf-tools' });
    expect(again).toMatchObject({ name: 'pdf-tools-evals', format: 'evals', itemCount: 4 });

    const jsonl = await core['labels.export']({ id: set.id, format: 'jsonl' });
    expect(jsonl.content.trim().split('\n')).toHaveLength(7);
    expect(JSON.parse(jsonl.content.split('\n')[4]!)).toEqual({
      id: 'pdf-tools-trigger-5',
      task: 'write a short poem about autumn',
      gold: [],
      avoid: ['pdf-tools'],
    });
  });

  it('asks for the skill of a trigger set kept outside evals/ with no skill_name', async () => {
    const loose = path.join(dir, 'queries.json');
    writeFileSync(loose, JSON.stringify(queries.slice(0, 2)));
    await expect(core['labels.import']({ path: loose })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(await core['labels.import']({ path: loose, skill: 'pdf-tools' })).toMatchObject({
      name: 'pdf-tools-queries',
      itemCount: 2,
    });
  });
});
