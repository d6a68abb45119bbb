// The advice under an API error: a CONFLICT is many things (a running job, a name taken, a file there already), so
// it no longer sends everyone to Library → Conflicts (import conflicts); a job that holds the work points to Jobs.
// A re-parse with no LLM model chosen sends the user to Settings, not to "the values you entered" (there were none).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/core';
import { adviceFor } from '../../src/renderer/src/app/error-advice';
import { toErrorData } from '../../src/shared/errors';
import { repoRoot } from '../e2e/harness';

describe('advice for CONFLICT', () => {
  it('points a running job to the Jobs screen', () => {
    const advice = adviceFor({
      code: 'CONFLICT',
      message: 'A skill-parsing job is already running (j1); wait for it or cancel it',
      details: { jobId: 'j1' },
    });
    expect(advice).toContain('on the Jobs screen');
  });

  it('adds nothing to a message that already says what to do', () => {
    expect(adviceFor({ code: 'CONFLICT', message: 'A profile named "home" exists already' })).toBeUndefined();
  });
});

describe('advice for a garbled LLM answer', () => {
  it('does not send the user to test a connection that works', () => {
    const advice = adviceFor({
      code: 'LLM_ERROR',
      message: 'The model\'s answer is not in the "Subtask i:" / "State i:" format: Line 1 is neither ...',
      details: { raw: 'Precondition_State: ...', reason: 'Line 1 is neither "Subtask N:" nor "State N:"' },
    });
    expect(advice).toContain('did not answer in the format asked for');
    expect(advice).not.toContain('Test connection');
  });

  it('still sends an endpoint failure without an answer to Settings', () => {
    expect(adviceFor({ code: 'LLM_ERROR', message: 'The endpoint failed' })).toContain('Test connection');
  });
});

describe('advice for a re-parse with no LLM model chosen', () => {
  it('sends the user to Settings → LLM endpoint, or to write the states by hand', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'curator-advice-'));
    const core = createCore({ dataDir, resourcesDir: path.join(repoRoot, 'resources') });
    try {
      const refused = await core['parse.skills']({ ids: [1], force: true }).catch((e: unknown) => e);
      const data = toErrorData(refused);
      expect(data.message).toContain('no model is chosen');
      const advice = adviceFor(data);
      expect(advice).toContain('Settings → LLM endpoint');
      expect(advice).toContain('write the states by hand');
    } finally {
      await core.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
