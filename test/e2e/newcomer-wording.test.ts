// Words a newcomer tripped over, in Debian's Chromium against the browser mode: the empty Library named a panel by an
// old name ("Apply reviewed states"); a sample hint ran its path into "Use them"; a single-skill delete spoke of
// "their states" and "1 has reviewed states"; the Undo bar said "Deleted 2 skills (2 skills)" and floated over the
// list's rows; the Trash named no skill of a delete of several and asked to "Delete all 1 deletes"; a delete that
// pushed an old one out of the trash did not say so; a narrow window broke "Sources…" over two lines.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { skillMd } from '../fixtures/git-skills';
import { describeInChromium, useBrowserMode } from './browser-session';

const named = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta'];
const fillers = Array.from({ length: 20 }, (_, i) => `filler-${String(i).padStart(2, '0')}`);

describeInChromium('newcomer wording', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'curator-wording-'));
  const session = useBrowserMode({
    name: 'wording',
    prepare: async () => {
      for (const name of [...named, ...fillers]) {
        mkdirSync(path.join(dir, 'skills', name), { recursive: true });
        writeFileSync(path.join(dir, 'skills', name, 'SKILL.md'), skillMd(name, `Does ${name}.`));
      }
    },
    open: '#/library',
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  });
  const core = () => session.server.core;
  const idOf = async (name: string) => (await core()['library.get']({ name })).id;

  it('names the Reviewed states panel as it is called, in the empty Library', async () => {
    const { page } = session;
    const hint = page.getByTestId('empty-library-hint');
    await expect.poll(() => hint.textContent()).toContain('Import… → Reviewed states');
    expect(await hint.textContent()).not.toContain('Apply reviewed states');
    const job = await core()['library.import']({ path: path.join(dir, 'skills') });
    expect((await core()['jobs.wait']({ id: job.id })).status).toBe('done');
  });

  it('ends the sample path with a full stop before “Use them”', async () => {
    const { page } = session;
    const { sampleStates } = await core()['settings.paths']({});
    await page.reload();
    await page.locator('.skill-list').waitFor();
    await page.getByRole('button', { name: 'Import…' }).click();
    const panel = page.getByRole('region', { name: 'Reviewed states' });
    await expect.poll(() => panel.textContent()).toContain(`${sampleStates}. Use them`);
    await page.getByRole('button', { name: 'Import…' }).click();
  });

  it('speaks of one skill in the singular, says which delete left the trash, and keeps the Undo bar off the rows', async () => {
    const { page } = session;
    // The trash full of deletes of one unreviewed skill each: the next delete pushes the oldest out.
    for (const name of fillers) await core()['sources.delete']({ skillIds: [await idOf(name)] });
    const alpha = await idOf('alpha');
    await core()['states.edit']({ skillId: alpha, completion: 'Alpha is done.' });
    await page.evaluate((id) => (window.location.hash = `#/skill/${id}`), alpha);
    await page.getByRole('button', { name: 'Delete…' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Confirm delete' });
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain(
      'Delete the skill “alpha”? It has reviewed states (edited or verified). Its states and history go with it; Undo brings everything back.',
    );
    await confirm.getByRole('button', { name: 'Delete 1 skill' }).click();
    await page
      .locator('.toast', {
        hasText:
          /The oldest delete in the trash \(filler-00, deleted [\d-]+ [\d:]+\) can no longer be restored: the trash keeps the last 20/,
      })
      .waitFor();
    const undo = page.getByRole('status', { name: 'Undo delete' });
    await undo.waitFor();
    expect((await undo.textContent())!.startsWith('Deleted alpha')).toBe(true);
    expect(await undo.textContent()).not.toContain('(1 skill');
    const bar = (await undo.boundingBox())!;
    const list = (await page.locator('.skill-list').boundingBox())!;
    // Above the list, not over its rows.
    expect(bar.y + bar.height).toBeLessThanOrEqual(list.y);
  });

  it('names the skills of a delete of several in the Undo bar and the Trash, and asks about one delete in the singular', async () => {
    const { page } = session;
    await core()['sources.emptyTrash']({});
    const five = await Promise.all(['beta', 'gamma', 'delta', 'epsilon', 'zeta'].map(idOf));
    await core()['sources.delete']({ skillIds: five.slice(0, 2) });
    await page.reload();
    const undo = page.getByRole('status', { name: 'Undo delete' });
    await expect.poll(() => undo.textContent()).toContain('Deleted beta, gamma (2 skills)');
    await core()['sources.undoDelete']({});
    const many = await core()['sources.delete']({ skillIds: five });
    await page.reload();
    await page.getByRole('button', { name: 'Sources…' }).click();
    const trash = page.getByRole('region', { name: 'Trash' });
    const row = trash.getByTestId(`trash-${many.id}`);
    await expect.poll(() => row.textContent()).toContain('beta, gamma, delta and 2 more');
    await trash.getByRole('button', { name: 'Empty trash…' }).click();
    const ask = trash.getByRole('alertdialog', { name: 'Confirm delete for good' });
    expect(await ask.textContent()).toContain(
      'Delete the one delete of the trash (“beta, gamma, delta and 2 more”) for good (5 skills)? This cannot be undone.',
    );
    await ask.getByRole('button', { name: 'Cancel' }).click();
  });

  // A guard: in this Chromium "Sources…" kept to one line without `white-space: nowrap` too (the newcomer saw it break).
  it('keeps “Sources…” on one line in a narrow window', async () => {
    const { page } = session;
    await page.setViewportSize({ width: 640, height: 760 });
    try {
      const lines = () =>
        page.getByRole('button', { name: 'Sources…' }).evaluate((button) => {
          const range = document.createRange();
          range.selectNodeContents(button);
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        });
      await expect.poll(lines).toBe(1);
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  });
});
