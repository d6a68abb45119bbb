// The advice under an API error: a CONFLICT is many things (a running job, a name taken, a file there already), so
// it no longer sends everyone to Library → Conflicts (import conflicts); a job that holds the work points to Jobs.
import { describe, expect, it } from 'vitest';
import { adviceFor } from '../../src/renderer/src/app/error-advice';

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
