// `skill-curator mcp` serves verified skills only by default; on a library where none is verified an agent would
// silently find nothing, so the command says so on stderr (stdout stays MCP only), and stays quiet once one is.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/core';
import { repoRoot } from '../e2e/harness';
import { cliArgs } from './mcp-fixture';

let dataDir: string;
const resources = path.join(repoRoot, 'resources');

function mcp(...args: string[]) {
  return spawnSync(process.execPath, cliArgs(dataDir, 'mcp', ...args), {
    cwd: repoRoot,
    input: '',
    encoding: 'utf8',
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'curator-mcp-none-'));
  const core = createCore({ dataDir, resourcesDir: resources });
  const job = await core['library.import']({
    path: path.join(resources, 'sample-library', 'household-make-coffee'),
  });
  expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
  await core.close();
}, 60_000);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('CLI mcp on a library with no verified skill', () => {
  it('warns that agents will find none, and how to serve some', () => {
    const run = mcp();
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain('no skill of the 1 in this library is verified yet');
    expect(run.stderr).toContain('--allow all');
    expect(run.stdout).toBe('');
  });

  it('says nothing of the kind with --allow all, or once a skill is verified', async () => {
    expect(mcp('--allow', 'all').stderr).not.toContain('verified yet');
    const core = createCore({ dataDir, resourcesDir: resources });
    const { id } = await core['library.get']({ name: 'household-make-coffee' });
    await core['states.edit']({
      skillId: id,
      precondition: 'None',
      completion: 'The mug is full of coffee.',
    });
    await core['states.verify']({ skillId: id });
    await core.close();
    expect(mcp().stderr).not.toContain('verified yet');
  });
});
