// Audit suppressions travel with the states file: exported beside the states with their reasons, imported into another
// library where they hold on the same content, come back for review on changed content, are not added twice, and a
// malformed suppression line is a numbered error that loses none of the other lines. Two real library files.
import { cpSync, mkdtempSync, readFileSync, rmSync, appendFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core';

const corpus = path.resolve('test/fixtures/audit-corpus');
let dir: string;

async function library(name: string, edit?: (skills: string) => void): Promise<Core> {
  const skills = path.join(dir, `${name}-skills`);
  cpSync(path.join(corpus, 'benign', 'ssh-key-setup'), path.join(skills, 'ssh-key-setup'), {
    recursive: true,
  });
  cpSync(path.join(corpus, 'benign', 'git-hooks-guide'), path.join(skills, 'git-hooks-guide'), {
    recursive: true,
  });
  edit?.(skills);
  const core = createCore({ dataDir: path.join(dir, name), resourcesDir: path.resolve('resources') });
  const job = await core['library.import']({ path: skills });
  expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
  return core;
}

const findings = async (core: Core, name: string) =>
  (await core['audit.skill']({ skillId: (await core['library.get']({ name })).id })).findings;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-audit-suppressions-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('audit suppressions in the states file', () => {
  it('carries each suppression and its reason to another library, where it holds only on the same content', async () => {
    const a = await library('a');
    const [ssh] = await findings(a, 'ssh-key-setup');
    const hooks = await findings(a, 'git-hooks-guide');
    expect(ssh).toBeDefined();
    expect(hooks.length).toBeGreaterThan(0);
    await a['audit.suppress']({ findingId: ssh!.id, scope: 'finding', reason: 'names the default key path' });
    await a['audit.suppress']({ findingId: hooks[0]!.id, scope: 'skill-rule', reason: 'teaches git hooks' });
    const sshId = (await a['library.get']({ name: 'ssh-key-setup' })).id;
    await a['states.edit']({ skillId: sshId, precondition: null, completion: 'An SSH key pair exists' });
    const file = path.join(dir, 'states.jsonl');
    const out = await a['states.export']({ path: file });
    expect(out.suppressions).toBe(2);
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.filter((l) => l.kind === 'audit-suppression')).toEqual([
      expect.objectContaining({ name: 'git-hooks-guide', scope: 'skill-rule', reason: 'teaches git hooks' }),
      expect.objectContaining({
        name: 'ssh-key-setup',
        scope: 'finding',
        reason: 'names the default key path',
      }),
    ]);
    await a.close();

    // Library b holds ssh-key-setup as it is, and git-hooks-guide with one more line.
    const b = await library('b', (skills) =>
      appendFileSync(path.join(skills, 'git-hooks-guide', 'SKILL.md'), '\nOne more line of advice.\n'),
    );
    expect((await findings(b, 'ssh-key-setup'))[0]?.suppressed).toBeNull();
    const applied = await b['states.import']({ path: file });
    expect(applied).toMatchObject({ applied: 1, suppressions: { applied: 2, unchanged: 0 }, errors: [] });
    expect((await findings(b, 'ssh-key-setup'))[0]?.suppressed).toMatchObject({
      scope: 'finding',
      reason: 'names the default key path',
    });
    const changed = (await findings(b, 'git-hooks-guide')).find((f) => f.ruleId === hooks[0]!.ruleId)!;
    expect(changed.suppressed).toBeNull();
    expect(changed.suppressionToReview).toMatchObject({ reason: 'teaches git hooks' });

    // The same file again adds nothing; a broken suppression line is reported by number and the rest still apply.
    writeFileSync(
      file,
      readFileSync(file, 'utf8') +
        JSON.stringify({
          kind: 'audit-suppression',
          name: 'ssh-key-setup',
          scope: 'finding',
          rule: 'X',
          reason: 'no digest',
          createdAt: 'now',
          fingerprint: null,
          contentSha256: null,
        }) +
        '\n' +
        JSON.stringify({
          kind: 'audit-suppression',
          name: 'not-here',
          scope: 'skill-rule',
          rule: 'SC-X',
          reason: 'absent skill',
          createdAt: 'now',
          fingerprint: null,
          contentSha256: 'ab'.repeat(32),
        }) +
        '\n',
    );
    const again = await b['states.import']({ path: file });
    expect(again.suppressions).toEqual({ applied: 0, unchanged: 2 });
    expect(again.unknownSkills).toEqual(['not-here']);
    expect(again.errors).toEqual([
      { line: lines.length + 1, message: expect.stringMatching(/finding fingerprint and the file digest/) },
    ]);
    await b.close();
  });
});
