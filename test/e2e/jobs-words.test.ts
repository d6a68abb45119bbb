// Jobs in a person's words (issue 14), in Debian's Chromium against the browser mode and the loopback OpenAI server:
// titles ("Import sample-library", "Parse 48 skills"), a notice when a job ends with a link to its result, a job that
// finished with failures is not green and offers a retry of the failed items, a curator's own Cancel is not an
// error, and a missing import path says that the path does not exist.
import { expect, it } from 'vitest';
import { LEXICAL_STATS_JOB } from '../../src/core/api/lexical-stats-job';
import type { CannedReply, OpenAiServer } from '../fixtures/openai-server';
import { describeInChromium, useBrowserMode } from './browser-session';
import { inBothThemes } from './harness';
import { connectLoopbackLlm, sampleLibrary, sampleStates, skillNameAsked } from './prepare';

const states = (name: string): CannedReply => ({
  content: `Precondition_State: None\nCompletion_State: The ${name} result exists.`,
});

describeInChromium('jobs in words', () => {
  let llm: OpenAiServer;
  let reply: (name: string) => CannedReply;
  const session = useBrowserMode({
    name: 'jobs',
    prepare: async ({ core }) => {
      reply = (name) =>
        name === 'household-make-coffee' ? { content: 'I would rather not.' } : states(name);
      llm = await connectLoopbackLlm(core, { reply: (req) => reply(skillNameAsked(req)) });
    },
    open: '#/jobs',
    cleanup: () => llm?.close(),
  });

  const row = (kind: string) => session.page.locator(`li.job[data-job-kind="${kind}"]`).first();

  it('names an import for its source, tells when it ends, and opens its report', async () => {
    const { server, page } = session;
    const job = await server.core['library.import']({ path: sampleLibrary });
    await server.core['jobs.wait']({ id: job.id });
    const notice = page.locator(`.notice[data-job-id="${job.id}"]`);
    await expect.poll(() => notice.textContent()).toContain('Import sample-library: done (48 items)');
    await expect.poll(() => notice.getAttribute('class')).toContain('notice-done');

    await expect
      .poll(() => row('library.import').locator('.job-title').textContent())
      .toBe('Import sample-library');
    // The row follows the job's events on its own: the notice can say done a moment before it does (on a loaded
    // machine more than the poll's default second before).
    await expect
      .poll(() => row('library.import').locator('.badge').textContent(), { timeout: 10_000 })
      .toBe('done');
    expect(await row('library.import').getByRole('button', { name: 'Resume' }).count()).toBe(0);
    await row('library.import').getByRole('button', { name: 'Report' }).click();
    await expect.poll(() => row('library.import').locator('.job-report').textContent()).toContain('48 added');
  });

  it('names the library word statistics job in words, in its row and its notice', async () => {
    const { server, page } = session;
    const job = server.core.context.jobs.start(LEXICAL_STATS_JOB, {});
    await server.core['jobs.wait']({ id: job.id });
    const notice = page.locator(`.notice[data-job-id="${job.id}"]`);
    await expect.poll(() => notice.textContent()).toContain('Library word statistics: done');
    await expect
      .poll(() => row(LEXICAL_STATS_JOB).locator('.job-title').textContent())
      .toBe('Library word statistics');
  });

  it('shows a parse that finished with failures as not done, keeps its notice, and offers a retry', async () => {
    const { server, page } = session;
    const job = await server.core['parse.skills']({});
    const final = await server.core['jobs.wait']({ id: job.id });
    expect(final.status).toBe('done');
    expect(final.progress.failed).toBe(1);
    const notice = page.locator(`.notice[data-job-id="${job.id}"]`);
    await expect
      .poll(() => notice.textContent())
      .toContain('Parse 48 skills: done with failures (1 of 48 failed)');
    const parse = row('parse.skills');
    await expect.poll(() => parse.locator('.badge').textContent()).toBe('done with failures');
    const badgeColour = await parse.locator('.badge').evaluate((el) => getComputedStyle(el).color);
    const doneColour = await row('library.import')
      .locator('.badge')
      .evaluate((el) => getComputedStyle(el).color);
    expect(badgeColour).not.toBe(doneColour);
    await inBothThemes(page, 'jobs-with-failures');
    // A done notice goes away by itself; one with failures stays until dismissed.
    await page.waitForTimeout(8500);
    expect(await notice.count()).toBe(1);
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    expect(await notice.count()).toBe(0);

    reply = states;
    await parse.getByRole('button', { name: 'Retry failed' }).click();
    // A new job, titled for the one skill it parses, ends done.
    const retry = page.locator('li.job[data-job-kind="parse.skills"]').first();
    await expect.poll(() => retry.locator('.job-title').textContent()).toBe('Parse 1 skill');
    await expect.poll(() => retry.locator('.badge').textContent()).toBe('done');
  });

  it("shows the curator's own cancel as cancelled, not as an error", async () => {
    const { server, page } = session;
    reply = (name) => ({ ...states(name), delayMs: 1500 }) as CannedReply;
    const job = await server.core['parse.skills']({ only: 'all', force: true });
    const running = page.locator(`li.job[data-outcome="running"]`).first();
    await running.getByRole('button', { name: 'Cancel' }).click();
    const final = await server.core['jobs.wait']({ id: job.id });
    expect(final.status).toBe('cancelled');
    const cancelled = page.locator(`li.job[data-outcome="cancelled"]`).first();
    await expect.poll(() => cancelled.locator('.badge').textContent()).toBe('cancelled');
    expect(await cancelled.locator('.error-note').count()).toBe(0);
    expect(await cancelled.textContent()).toContain('Resume goes on from there');
    expect(await cancelled.getByRole('button', { name: 'Resume' }).count()).toBe(1);
  });

  it('says that a missing import path does not exist', async () => {
    const { page, problems } = session;
    await page.evaluate(() => (window.location.hash = '#/library'));
    await page.getByRole('button', { name: 'Import…' }).click();
    await page.getByLabel('Path to import').fill('/no/such/folder');
    await page.getByLabel('Import').getByRole('button', { name: 'Import', exact: true }).click();
    const note = page.locator('.error-note').first();
    await expect.poll(() => note.textContent()).toContain('the path does not exist');
    expect(await note.locator('.hint').textContent()).toContain('Check the path');
    expect(problems.filter((p) => !p.includes('404') && !p.includes('Failed to load resource'))).toEqual([]);
  });

  it('applies reviewed states from a file, from the Library', async () => {
    const { server, page } = session;
    const panel = page.getByRole('region', { name: 'Reviewed states' });
    await panel.getByLabel('States file').fill(sampleStates);
    await panel.getByRole('button', { name: 'Apply states' }).click();
    await expect
      .poll(() => panel.getByTestId('states-applied').textContent())
      .toMatch(/^Applied states to \d+ skills/);
    const stats = await server.core['library.stats']({});
    expect((stats.byStatus.edited ?? 0) + (stats.byStatus.verified ?? 0)).toBeGreaterThan(20);
  });
});
