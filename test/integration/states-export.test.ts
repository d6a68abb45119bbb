// states.export writes the file states.import reads: one curator's parsed, edited and verified states leave library A
// and arrive in library B with the same text, verified ones still verified, and B's own reviewed states kept. The whole
// API through createCore on real library files.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core';
import { recordParse } from '../../src/core/states';

const resources = path.resolve('resources');
const names = ['alpha-boil', 'beta-chop', 'gamma-fry', 'delta-serve'];
let dir: string;
let a: Core;
let b: Core;

async function libraryOf(name: string): Promise<Core> {
  const core = createCore({ dataDir: path.join(dir, name), resourcesDir: resources });
  const job = await core['library.import']({ path: path.join(dir, 'skills') });
  expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
  return core;
}

const idOf = async (core: Core, name: string) => (await core['library.get']({ name })).id;
const statesOf = async (core: Core, name: string) => core['states.get']({ skillId: await idOf(core, name) });

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'curator-states-export-'));
  for (const name of names) {
    mkdirSync(path.join(dir, 'skills', name), { recursive: true });
    writeFileSync(
      path.join(dir, 'skills', name, 'SKILL.md'),
      `---\nname: ${name}\ndescription: ${name} in the kitchen. Use when asked to.\n---\n# ${name}\nDo it.\n`,
    );
  }
  a = await libraryOf('a');
  // alpha as a parse left it, beta edited by the curator, gamma edited and verified, delta never parsed.
  const alpha = await idOf(a, 'alpha-boil');
  const hash = a.context.db.prepare('SELECT content_hash FROM skills WHERE id = ?').get(alpha) as {
    content_hash: string;
  };
  recordParse(
    a.context.db,
    () => new Date(),
    alpha,
    {
      outcome: 'parsed',
      precondition: null,
      completion: 'The water boils.',
      rawAnswer: 'Precondition_State: None\nCompletion_State: The water boils.',
      error: null,
      model: 'test-model',
      promptVersion: 'v1',
      sourceHash: hash.content_hash,
      promptTokens: 10,
      completionTokens: 5,
    },
    false,
  );
  await a['states.edit']({
    skillId: await idOf(a, 'beta-chop'),
    precondition: 'An onion is on the board.',
    completion: 'The onion is chopped.',
  });
  const gamma = await idOf(a, 'gamma-fry');
  await a['states.edit']({ skillId: gamma, precondition: 'A pan is hot.', completion: 'The egg is fried.' });
  await a['states.verify']({ skillId: gamma });
  b = await libraryOf('b');
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('states.export', () => {
  it('writes one line per skill with states, by name, in the form states.import reads, with each status', async () => {
    const out = await a['states.export']({});
    expect(out.fileName).toBe('states.jsonl');
    expect(out.byStatus).toEqual({ parsed: 1, edited: 1, verified: 1 });
    expect(out.content.endsWith('\n')).toBe(true);
    expect(
      out.content
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      {
        name: 'alpha-boil',
        precondition: null,
        completion: 'The water boils.',
        status: 'parsed',
        model: 'test-model',
      },
      {
        name: 'beta-chop',
        precondition: 'An onion is on the board.',
        completion: 'The onion is chopped.',
        status: 'edited',
      },
      {
        name: 'gamma-fry',
        precondition: 'A pan is hot.',
        completion: 'The egg is fried.',
        status: 'verified',
      },
    ]);
  });

  it('keeps only the statuses asked for, and refuses a status that has no states', async () => {
    const reviewed = await a['states.export']({ statuses: ['verified', 'edited'] });
    expect(reviewed.fileName).toBe('states-edited-verified.jsonl');
    expect(reviewed.byStatus).toEqual({ parsed: 0, edited: 1, verified: 1 });
    expect(
      reviewed.content
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).name),
    ).toEqual(['beta-chop', 'gamma-fry']);
    await expect(a['states.export']({ statuses: ['unparsed' as 'parsed'] })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('unparsed'),
    });
  });

  it('writes a file, refuses to replace one unless asked, and leaves no partial file behind', async () => {
    const out = path.join(dir, 'shared');
    mkdirSync(out);
    const file = path.join(out, 'reviewed.jsonl');
    const written = await a['states.export']({ statuses: ['verified'], path: file });
    expect(written.path).toBe(file);
    expect(readFileSync(file, 'utf8')).toBe(written.content);
    await expect(a['states.export']({ path: file })).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(readFileSync(file, 'utf8')).toBe(written.content);
    const replaced = await a['states.export']({ path: file, overwrite: true });
    expect(readFileSync(file, 'utf8')).toBe(replaced.content);
    expect(replaced.byStatus.parsed).toBe(1);
    await expect(
      a['states.export']({ path: path.join(out, 'no-such-folder', 'x.jsonl') }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(readdirSync(out)).toEqual(['reviewed.jsonl']);
  });
});

describe('states export of nothing', () => {
  it('writes no file when no skill has the statuses asked for, and says which the library has', async () => {
    const file = path.join(dir, 'nothing.jsonl');
    await expect(b['states.export']({ path: file })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message:
        'Nothing to export: no skill has verified, edited or parsed states; no skill in this library has states yet',
    });
    expect(existsSync(file)).toBe(false);
    // Without a path the (empty) content comes back, for the app to say there is nothing to save.
    expect((await b['states.export']({})).content).toBe('');
  });
});

describe('states export → states import into another library', () => {
  it('brings the same states, verified ones verified, and keeps what a curator reviewed there', async () => {
    const file = path.join(dir, 'from-a.jsonl');
    await a['states.export']({ path: file });
    // B's curator has already reviewed beta: that is kept.
    await b['states.edit']({ skillId: await idOf(b, 'beta-chop'), completion: 'The onion is diced.' });

    const result = await b['states.import']({ path: file });
    expect(result).toEqual({
      applied: 2,
      unchanged: [],
      keptHumanEdits: ['beta-chop'],
      unknownSkills: [],
      errors: [],
      suppressions: { applied: 0, unchanged: 0 },
    });
    // The same file again: what it would write is there already, and only beta's edit here is kept over it.
    expect(await b['states.import']({ path: file })).toEqual({
      applied: 0,
      unchanged: ['alpha-boil', 'gamma-fry'],
      keptHumanEdits: ['beta-chop'],
      unknownSkills: [],
      errors: [],
      suppressions: { applied: 0, unchanged: 0 },
    });
    expect(await statesOf(b, 'gamma-fry')).toMatchObject({
      status: 'verified',
      precondition: 'A pan is hot.',
      completion: 'The egg is fried.',
    });
    // A parse stays a parse (by its model, still to be reviewed): moving an LLM's answer does not make it an edit.
    expect(await statesOf(b, 'alpha-boil')).toMatchObject({
      status: 'parsed',
      model: 'test-model',
      precondition: null,
      completion: 'The water boils.',
      outdated: false,
    });
    expect(await statesOf(b, 'beta-chop')).toMatchObject({
      status: 'edited',
      completion: 'The onion is diced.',
    });
    expect((await statesOf(b, 'delta-serve')).status).toBe('unparsed');

    expect(await b['states.import']({ path: file, overwrite: true })).toMatchObject({
      applied: 1,
      unchanged: ['alpha-boil', 'gamma-fry'],
    });
    const text = (s: { content: string }) =>
      s.content
        .trimEnd()
        .split('\n')
        .map((l) => {
          const { name, precondition, completion } = JSON.parse(l);
          return { name, precondition, completion };
        });
    expect(text(await b['states.export']({}))).toEqual(text(await a['states.export']({})));
    expect((await b['states.export']({})).byStatus).toEqual({ parsed: 1, edited: 1, verified: 1 });
    // Asked to verify every line, the parse line is verified like the others.
    expect(await b['states.import']({ path: file, overwrite: true, verify: true })).toMatchObject({
      applied: 2,
      unchanged: ['gamma-fry'],
    });
    expect((await b['states.export']({})).byStatus).toEqual({ parsed: 0, edited: 0, verified: 3 });
  });

  it('reads a status that is not one of the exported ones as a bad line', async () => {
    const file = path.join(dir, 'odd-status.jsonl');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'delta-serve',
        precondition: null,
        completion: 'Food is served.',
        status: 'approved',
      }) + '\n',
    );
    const result = await b['states.import']({ path: file });
    expect(result.applied).toBe(0);
    expect(result.errors).toEqual([{ line: 1, message: expect.stringContaining('status') }]);
  });
});
