// A Library left with hundreds of open conflicts by a large import, in Debian's Chromium against the browser mode: the
// Conflicts panel shows a page of them in a bounded box, so the skill list and a search's results stay on the first
// screen; the bulk bar stays in sight after ticking a row far down; Select all still means every open conflict; the
// list is asked for once on load and carries no SKILL.md bodies; a search that hits its limit says so.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { Response } from 'playwright-core';
import { conflictName, openConflicts } from '../fixtures/skills/conflicting-sources';
import { describeInChromium, useBrowserMode } from './browser-session';
import { inBothThemes } from './harness';

const conflicts = 300;

describeInChromium('a Library with hundreds of open conflicts', () => {
  let dir: string;
  const session = useBrowserMode({
    name: 'many-conflicts',
    prepare: async ({ core }) => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'curator-e2e-many-conflicts-'));
      await openConflicts(core, dir, conflicts);
    },
    open: '#/library',
    ready: '.skill-row .row-button',
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  });
  const panel = () => session.page.getByRole('region', { name: 'Conflicts' });
  const rows = () => panel().locator('tr[data-conflict-id]');
  /** Where an element's top is, in screen heights from the top of the Library. */
  const screensDown = (selector: string) =>
    session.page.evaluate((sel) => {
      const content = document.querySelector('.content')!;
      const top = document.querySelector(sel)!.getBoundingClientRect().top + content.scrollTop;
      return top / window.innerHeight;
    }, selector);

  it('shows a page of conflicts, as before, and the skill list on the first screen', async () => {
    await expect.poll(() => panel().locator('h2').textContent()).toBe(`Conflicts (${conflicts})`);
    expect(await rows().count()).toBe(50);
    expect(await rows().first().textContent()).toContain(`Open the ${conflictName(0)} valve with a motor.`);
    expect(await rows().first().getByRole('link', { name: 'open existing' }).count()).toBe(1);
    expect(await screensDown('.skill-list')).toBeLessThan(1);
    await panel().getByRole('button', { name: 'Show 50 more' }).click();
    await expect.poll(() => rows().count()).toBe(100);
    expect(await panel().getByTestId('conflicts-more').textContent()).toContain('Showing 100 of 300.');
    expect(await screensDown('.skill-list')).toBeLessThan(1);
  });

  it('keeps the bulk bar in sight after ticking a row far down; Select all ticks every open conflict', async () => {
    const { page } = session;
    const far = conflictName(99);
    await panel().getByLabel(`Select conflict ${far} at ${far}`).check();
    const bar = page.getByRole('toolbar', { name: 'Resolve selected conflicts' });
    await expect.poll(() => bar.getByTestId('conflicts-selected').textContent()).toBe('1 selected');
    const box = (await bar.boundingBox())!;
    const viewport = page.viewportSize()!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
    await inBothThemes(page, 'many-conflicts-far-row-ticked');

    await panel().getByLabel(`Select all ${conflicts}, also the 200 not shown`).check();
    await expect
      .poll(() => bar.getByTestId('conflicts-selected').textContent())
      .toBe(`${conflicts} selected`);
    expect(await bar.textContent()).toContain('(200 of them not shown below)');
    await bar.getByRole('button', { name: 'Keep both…' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Confirm resolving conflicts' });
    await expect.poll(() => confirm.getByTestId('conflicts-edits').count()).toBe(1);
    expect(await confirm.locator('p').first().textContent()).toBe(`Keep both for ${conflicts} conflicts?`);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await panel().getByLabel(`Select all ${conflicts}, also the 200 not shown`).uncheck();
  });

  it('asks for the conflicts once on load and once per resolution, without the incoming bodies', async () => {
    const { page, problems } = session;
    const answers: Response[] = [];
    let sourcesAsked = 0;
    page.on('response', (r) => {
      if (r.url().includes('library.conflicts')) answers.push(r);
      if (r.url().includes('library.sources')) sourcesAsked++;
    });
    await page.reload();
    await expect.poll(() => rows().count()).toBe(50);
    await page.waitForTimeout(1000);
    // Counted against the sources, which the Library asks for once per mount: the e2e build is React's development
    // build, whose StrictMode mounts each screen twice.
    expect(sourcesAsked).toBeGreaterThan(0);
    expect(answers).toHaveLength(sourcesAsked);
    const listed = (await answers.at(-1)!.json()) as { incoming: Record<string, unknown> }[];
    expect(listed).toHaveLength(conflicts);
    expect(listed.every((c) => !('body' in c.incoming))).toBe(true);

    answers.length = 0;
    await rows().first().getByRole('button', { name: 'Skip' }).click();
    await expect.poll(() => panel().locator('h2').textContent()).toBe(`Conflicts (${conflicts - 1})`);
    await page.waitForTimeout(1000);
    expect(answers).toHaveLength(1);
    expect(problems).toEqual([]);
  });

  it('says a search that reached its limit found at least that many, its results on the first screen', async () => {
    const { page } = session;
    await page.getByRole('searchbox', { name: 'Search' }).fill('valve');
    await expect
      .poll(() => page.getByTestId('search-summary').textContent())
      .toContain('200+ matches (the first 200 shown)');
    expect(await screensDown('.skill-list')).toBeLessThan(1);
    expect(await page.locator('.skill-list .skill-row').count()).toBeGreaterThan(0);
  });
});
