// Resolving many conflicts at once in the Library, in Debian's Chromium against the browser mode: 12 open conflicts
// (two over skills whose states a curator edited) are all ticked from the keyboard, the Replace confirmation names
// the two edited skills and offers to leave them open, the result line says what was done and what stayed open, and
// the Library asks for the conflicts once for the whole batch, not once per conflict.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { conflictName, openConflicts } from '../fixtures/skills/conflicting-sources';
import { describeInChromium, useBrowserMode } from './browser-session';
import { inBothThemes } from './harness';

describeInChromium('bulk conflict resolution', () => {
  let dir: string;
  const session = useBrowserMode({
    name: 'conflicts-bulk',
    prepare: async ({ core }) => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'curator-e2e-conflicts-'));
      await openConflicts(core, dir, 12, [2, 7]);
    },
    open: '#/library',
    ready: '.skill-row .row-button',
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  });
  const panel = () => session.page.getByRole('region', { name: 'Conflicts' });
  const open = async () => (await session.server.core['library.conflicts']({})).map((c) => c.name);

  it('ticks all with the keyboard, names the edits a replace would overwrite, and leaves those open', async () => {
    const { page, problems } = session;
    await expect.poll(() => panel().locator('h2').textContent()).toBe('Conflicts (12)');
    await panel().getByLabel('Select all').focus();
    await page.keyboard.press('Space');
    await expect.poll(() => page.getByTestId('conflicts-selected').textContent()).toBe('12 selected');
    // One row unticked with the keyboard, then ticked again.
    await panel()
      .getByLabel(`Select conflict ${conflictName(0)} at ${conflictName(0)}`)
      .focus();
    await page.keyboard.press('Space');
    await expect.poll(() => page.getByTestId('conflicts-selected').textContent()).toBe('11 selected');
    await page.keyboard.press('Space');
    await expect.poll(() => page.getByTestId('conflicts-selected').textContent()).toBe('12 selected');

    await page.getByRole('button', { name: 'Replace…' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Confirm resolving conflicts' });
    await expect
      .poll(() => confirm.getByTestId('conflicts-edits').textContent())
      .toContain('This would overwrite 2 skills a curator edited or verified');
    expect(await confirm.textContent()).toContain(`${conflictName(2)}, edited`);
    await inBothThemes(page, 'conflicts-bulk-confirm');
    expect(await open()).toHaveLength(12);

    const asked: string[] = [];
    page.on('request', (r) => r.url().includes('library.conflicts') && asked.push(r.url()));
    // The safe choice has the focus: Enter replaces the 10 others and leaves the edited two open.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe('Replace 10, leave the 2 edited open');
    await page.keyboard.press('Enter');
    const result = page.getByTestId('conflicts-result');
    await expect.poll(() => result.textContent()).toContain('Resolved 10 conflicts (replace) · 2 left open');
    await expect.poll(() => panel().locator('h2').textContent()).toBe('Conflicts (2)');
    expect(await open()).toEqual([conflictName(2), conflictName(7)]);
    expect(asked.length).toBeLessThanOrEqual(2);
    expect(problems).toEqual([]);
  });

  it('asks before one Replace overwrites an edited skill, then keeps both for the rest in bulk', async () => {
    const { page, server } = session;
    const row = (i: number) => panel().locator('tr', { hasText: conflictName(i) });
    await row(7).getByRole('button', { name: 'Replace' }).click();
    const ask = row(7).getByRole('alertdialog', { name: 'Confirm overwriting edits' });
    await expect.poll(() => ask.textContent()).toContain(`Replace overwrites “${conflictName(7)}” (edited)`);
    expect(await open()).toEqual([conflictName(2), conflictName(7)]);
    await ask.getByRole('button', { name: 'Overwrite the edited skill' }).click();
    await expect.poll(open).toEqual([conflictName(2)]);
    const replaced = await server.core['library.get']({ name: conflictName(7) });
    expect(await server.core['sources.skillChange']({ skillId: replaced.id })).not.toBeNull();

    await panel().getByLabel('Select all').check();
    await page.getByRole('button', { name: 'Keep both…' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Confirm resolving conflicts' });
    await expect
      .poll(() => confirm.getByTestId('conflicts-edits').textContent())
      .toBe('No skill a curator edited or verified is overwritten.');
    await confirm.getByRole('button', { name: 'Keep both for 1 conflict' }).click();
    await expect
      .poll(() => page.getByTestId('conflicts-result').textContent())
      .toBe('Resolved 1 conflict (keep-both)');
    expect(await open()).toEqual([]);
    await expect.poll(() => panel().locator('table').count()).toBe(0);
    expect((await server.core['library.stats']({})).skills).toBe(13);
    await expect.poll(() => page.locator('.stats-line').textContent()).not.toContain('open conflicts');
  });
});
