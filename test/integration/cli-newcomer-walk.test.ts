// What a newcomer trips over on the CLI with real-looking data: every skill of an import is accounted for in its
// summary line. The real CLI on a real library folder.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../fixtures/run-cli';

let dir: string;
const data = () => path.join(dir, 'data');

function writeSkill(root: string, name: string, extra = ''): void {
  mkdirSync(path.join(root, name), { recursive: true });
  writeFileSync(
    path.join(root, name, 'SKILL.md'),
    `---\nname: ${name}\ndescription: ${name} for the kitchen. Use when asked to.\n---\n# ${name}\nDo it.\n${extra}`,
  );
}

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'curator-cli-newcomer-walk-'));
  for (const copy of ['first', 'second']) {
    writeSkill(path.join(dir, copy), 'heat-egg');
    writeSkill(path.join(dir, copy), 'cool-egg', copy === 'second' ? 'One more line.\n' : '');
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('CLI import of a copy of a source already in the library', () => {
  it('counts the identical skills it did not add, so the summary adds up', async () => {
    expect((await runCli(data(), ['import', path.join(dir, 'first')])).code).toBe(0);
    const again = await runCli(data(), ['import', path.join(dir, 'second')]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('added 0');
    expect(again.stdout).toContain('conflicts 1');
    expect(again.stdout).toContain(
      'duplicates 1: the same content as a skill already in the library (from another source), not added again',
    );
  });
});
