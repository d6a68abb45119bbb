// Re-parse on the skill page in Debian's Chromium against the browser mode and the loopback OpenAI server (issue 9,
// items 1-2): edited states are replaced only after the curator chooses Replace, and a failed re-parse (a refused
// answer, a 500) keeps the states and shows the attempt beside them with a hint that fits.
import { expect, it } from 'vitest';
import type { CannedReply, OpenAiServer } from '../fixtures/openai-server';
import { insertSkill } from '../integration/llm-harness';
import { describeInChromium, useBrowserMode } from './browser-session';
import { screenshot } from './harness';
import { connectLoopbackLlm, skillNameAsked } from './prepare';

const answer = (completion: string): CannedReply => ({
  content: `Precondition_State: None\nCompletion_State: ${completion}`,
});

describeInChromium('re-parse on the skill page', () => {
  let llm: OpenAiServer;
  let reply: (name: string) => CannedReply;
  let curated: number;
  let steady: number;
  const session = useBrowserMode({
    name: 'reparse',
    open: true,
    prepare: async ({ core }) => {
      reply = (name) => answer(`The ${name} result exists.`);
      llm = await connectLoopbackLlm(core, { reply: (req) => reply(skillNameAsked(req)) });
      core.context.db
        .prepare(
          "INSERT INTO sources (id, kind, uri, label, created_at) VALUES (1, 'folder', '/skills', 'e2e', '2026-01-01')",
        )
        .run();
      curated = insertSkill(core.context.db, 'curated');
      steady = insertSkill(core.context.db, 'steady');
      const job = await core['parse.skills']({});
      expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
      await core['states.edit']({ skillId: curated, completion: 'The curator wrote this.' });
    },
    cleanup: () => llm?.close(),
  });

  const openSkill = async (id: number) => {
    const { page } = session;
    await page.evaluate((h) => (window.location.hash = h), `#/skill/${id}`);
    await page.locator('section[aria-label="Parsed states"] .badge').first().waitFor();
  };
  const panel = () => session.page.locator('section[aria-label="Parsed states"]');

  it('asks before replacing edited states; Keep sends nothing, Replace replaces them', async () => {
    const { page } = session;
    await openSkill(curated);
    await expect.poll(() => page.getByTestId('completion').textContent()).toBe('The curator wrote this.');
    const sentBefore = llm.chatRequests().length;

    await panel().getByRole('button', { name: 'Re-parse' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Re-parse this skill?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(
      'This skill has edited states; re-parsing keeps them unless you choose Replace',
    );
    await screenshot(page, 'reparse-confirm');
    await dialog.getByRole('button', { name: 'Keep them' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(llm.chatRequests().length).toBe(sentBefore);
    expect(await page.getByTestId('completion').textContent()).toBe('The curator wrote this.');

    await panel().getByRole('button', { name: 'Re-parse' }).click();
    await dialog.getByRole('button', { name: 'Replace' }).click();
    await expect.poll(() => page.getByTestId('completion').textContent()).toBe('The curated result exists.');
    await panel().locator('.badge.status-parsed').waitFor();
    expect(llm.chatRequests().length).toBe(sentBefore + 1);
  });

  it('a refused answer keeps the states and shows the answer and the reason beside them', async () => {
    const { page } = session;
    await openSkill(steady);
    await expect.poll(() => page.getByTestId('completion').textContent()).toBe('The steady result exists.');
    reply = () => ({ content: 'Sure! This skill helps with steady things.' });
    await panel().getByRole('button', { name: 'Re-parse' }).click();
    const attempt = page.getByTestId('failed-attempt');
    await attempt.waitFor();
    expect(await page.getByTestId('completion').textContent()).toBe('The steady result exists.');
    expect(await attempt.textContent()).toContain('the states above were kept');
    expect(await page.getByTestId('failed-attempt-reason').textContent()).toMatch(/\S/);
    await attempt.locator('summary').click();
    expect(await page.getByTestId('failed-attempt-raw').textContent()).toBe(
      'Sure! This skill helps with steady things.',
    );
  });

  it('a 500 keeps the states and says the endpoint failed, never "not available in this build"', async () => {
    const { page } = session;
    reply = () => ({ status: 500, message: 'upstream exploded' });
    await panel().getByRole('button', { name: 'Re-parse' }).click();
    const attempt = page.getByTestId('failed-attempt');
    await expect.poll(() => attempt.getAttribute('data-problem')).toBe('server-error');
    expect(await page.getByTestId('failed-attempt-hint').textContent()).toBe(
      'The endpoint failed; retry later.',
    );
    expect(await page.getByTestId('failed-attempt-reason').textContent()).toContain('500');
    expect(await page.getByTestId('completion').textContent()).toBe('The steady result exists.');
    await screenshot(page, 'reparse-failed-500');

    // The Jobs screen shows the failed job with the same hint.
    await page.evaluate(() => (window.location.hash = '#/jobs'));
    const failedJob = page.locator('li.job[data-job-kind="parse.skills"][data-status="failed"]').first();
    await failedJob.waitFor();
    expect(await failedJob.locator('.error-note').textContent()).toContain(
      'The endpoint failed; retry later.',
    );
    expect(await page.locator('body').textContent()).not.toContain('not available in this build');
  });
});
