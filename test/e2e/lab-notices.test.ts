// Failure notices in the Selection lab (a parse job against a dead LLM endpoint ends failed, and its notice stays
// until dismissed) must never cover what the lab shows: with the last answer card scrolled to the bottom of the
// window, the notice and the card do not overlap, the card's button takes the click, and the notice can be dismissed.
// In Debian's Chromium against the browser mode.
import { expect, it } from 'vitest';
import { describeInChromium, useBrowserMode } from './browser-session';
import { screenshot } from './harness';
import { importSampleLibrary, importSampleTasks } from './prepare';

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describeInChromium('Selection lab notices', () => {
  const session = useBrowserMode({
    name: 'lab-notices',
    viewport: { width: 1280, height: 800 },
    prepare: async ({ core }) => {
      await importSampleLibrary(core);
      await importSampleTasks(core);
      // Nothing listens on port 9 here: every request to this endpoint is refused.
      await core['settings.update']({
        patch: { llm: { baseURL: 'http://127.0.0.1:9/v1', model: 'e2e-model', maxRetries: 0 } },
      });
    },
  });

  it('keeps a failure notice clear of the last answer card, which stays clickable', async () => {
    const { server, page, problems } = session;
    await page.goto(server.pageUrl);
    await page.locator('.topbar').waitFor();
    await page.evaluate(() => (window.location.hash = '#/select'));
    await page.getByLabel('Sample task').selectOption('hh-01');

    // A parse the window sees running ends failed against the dead endpoint; its notice stays.
    const { items } = await server.core['library.list']({ limit: 2 });
    const job = await server.core['parse.skills']({ ids: items.map((s) => s.id), force: true });
    await server.core['jobs.wait']({ id: job.id });
    const notice = page.locator(`.notice[data-job-id="${job.id}"]`);
    await expect.poll(() => notice.getAttribute('class')).toMatch(/notice-(failed|done-with-failures)/);

    await page.getByRole('button', { name: 'Select skills' }).click();
    await page.getByTestId('variant-answers').waitFor({ timeout: 60_000 });
    const cards = page.locator('.variant-card');
    await expect.poll(() => cards.count()).toBeGreaterThan(1);
    const last = cards.last();
    // The last card at the bottom of the window, where notices are.
    await last.evaluate((el) => el.scrollIntoView({ block: 'end' }));
    await screenshot(page, 'lab-notice-and-last-card');
    const card = (await last.boundingBox())!;
    const shown = (await notice.boundingBox())!;
    expect(card.height).toBeGreaterThan(0);
    expect(overlap(card, shown), `notice ${JSON.stringify(shown)} covers card ${JSON.stringify(card)}`).toBe(
      false,
    );
    // What is under the card's centre is the card itself (or something inside it), not a notice.
    const hit = await page.evaluate(
      ({ x, y }) => document.elementFromPoint(x, y)?.closest('.variant-card, .notice')?.className ?? '',
      { x: card.x + card.width - 8, y: card.y + card.height - 8 },
    );
    expect(hit).toMatch(/variant-card/);
    await last.click({ timeout: 5000 });
    await expect.poll(() => last.getAttribute('class')).toContain('active');

    await notice.getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => notice.count()).toBe(0);
    expect(problems).toEqual([]);
  }, 120_000);
});
