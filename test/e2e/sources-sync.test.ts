// Sources that stay in sync, in Debian's Chromium against the browser mode (issue 14, "Sources that stay in sync"):
// a Git source from a local bare repository (served by `git http-backend`) imported with a token, a change upstream,
// the update check with its diff, applying some changes with an edited skill kept and marked "changed since"; a
// watched folder's pending update; delete with undo; a conflict's side-by-side diff; a browser upload.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { ImportReport } from '../../src/shared/api';
import { startGitServer, type GitServer } from '../fixtures/git-server';
import { makeSkillRepo, skillMd, type SkillRepo } from '../fixtures/git-skills';
import { describeInChromium, useBrowserMode } from './browser-session';
import { inBothThemes } from './harness';

describeInChromium('sources that stay in sync', () => {
  let git: GitServer;
  let repo: SkillRepo;
  let root: string;
  const token = 'e2e-token';
  const session = useBrowserMode({
    name: 'sync',
    viewport: { width: 1280, height: 900 },
    prepare: async () => {
      root = mkdtempSync(path.join(os.tmpdir(), 'sc-e2e-sync-'));
      repo = makeSkillRepo(root, 'team-skills', {
        'skills/alpha/SKILL.md': skillMd(
          'alpha',
          'Does alpha things.',
          'Open the box.\nTake the alpha out.\n',
        ),
        'skills/beta/SKILL.md': skillMd('beta', 'Does beta things.'),
      });
      git = await startGitServer(root, { token });
    },
    open: true,
    cleanup: async () => {
      await git?.close();
      if (root) rmSync(root, { recursive: true, force: true });
    },
  });

  const core = () => session.server.core;
  const sourcesPanel = () => session.page.locator('section[aria-label="Sources"]');
  const openLibrary = async () => {
    const { page } = session;
    await page.evaluate(() => (window.location.hash = '#/library'));
    if (!(await sourcesPanel().isVisible())) await page.getByRole('button', { name: 'Sources…' }).click();
    await sourcesPanel().waitFor();
  };
  const rowOf = (label: string) => sourcesPanel().locator('tr.source-row', { hasText: label });

  it('imports a private Git repository (branch and sub-folder) with a token', async () => {
    const { page } = session;
    await openLibrary();
    const form = page.locator('[aria-label="Add a Git repository"]');
    await form.getByLabel('Repository URL').fill(`${git.baseUrl}team-skills.git`);
    await form.getByLabel('Branch or tag').fill('main');
    await form.getByLabel('Sub-folder').fill('skills');
    await form.getByLabel('Label').fill('team skills');
    await form.getByLabel('Access token').fill(token);
    await form.getByRole('button', { name: 'Clone and import' }).click();
    await form.locator('.import-job[data-status="done"]').waitFor();
    expect(await form.locator('[data-count-of="added"]').textContent()).toContain('2');
    await expect.poll(() => rowOf('team skills').textContent()).toContain('token kept');
    expect(await form.getByLabel('Access token').inputValue()).toBe('');
    await inBothThemes(page, 'sources-git-added', 'section[aria-label="Sources"]');
  });

  it('checks upstream, shows the diff, applies some changes and keeps the edited skill marked "changed since"', async () => {
    const { page } = session;
    const alpha = await core()['library.get']({ name: 'alpha' });
    await core()['states.edit']({
      skillId: alpha.id,
      precondition: 'A box is at hand.',
      completion: 'Alpha is out.',
    });
    repo.write({
      'skills/alpha/SKILL.md': skillMd(
        'alpha',
        'Does alpha things.',
        'Open the box carefully.\nTake the alpha out.\n',
      ),
      'skills/beta': null,
      'skills/gamma/SKILL.md': skillMd('gamma', 'Does gamma things.'),
    });
    repo.push('upstream change');

    await openLibrary();
    await rowOf('team skills').getByRole('button', { name: 'Check for updates' }).click();
    const check = page.locator('[aria-label="Update check of team skills"]');
    await check.waitFor();
    expect(await check.getByTestId('check-summary').textContent()).toContain('1 added, 1 changed, 1 removed');
    const alphaItem = check.locator('.update-item[data-rel-path="alpha"]');
    expect(await alphaItem.textContent()).toContain('edited states kept');
    await alphaItem.getByRole('button', { name: 'Show diff' }).click();
    const diff = alphaItem.getByRole('region', { name: 'Diff of alpha' });
    expect(await diff.locator('[data-op="del"]').textContent()).toContain('Open the box.');
    expect(await diff.locator('[data-op="add"]').textContent()).toContain('Open the box carefully.');
    await inBothThemes(page, 'sources-update-check', '[aria-label="Update check of team skills"]');

    // Keep beta for now: apply only alpha and gamma.
    await check.getByLabel('Apply beta').uncheck();
    await check.getByRole('button', { name: 'Apply selected (2)' }).click();
    const applied = page.locator('[aria-label="Applied update"]');
    await applied.waitFor();
    expect(await applied.textContent()).toContain('1 added, 1 updated, 0 removed, 1 left for later');
    expect(await applied.textContent()).toContain('alpha: edited states kept');
    await inBothThemes(page, 'sources-applied', '[aria-label="Applied update"]');
    expect((await core()['library.get']({ name: 'beta' })).name).toBe('beta');
    expect(await core()['states.get']({ skillId: alpha.id })).toMatchObject({
      status: 'edited',
      completion: 'Alpha is out.',
    });

    await applied.getByRole('link', { name: 'alpha' }).click();
    const note = page.locator('section[aria-label="Skill changed since"]');
    await note.waitFor();
    expect(await note.textContent()).toContain('Skill changed since its states were edited');
    await note.getByRole('button', { name: 'Show diff' }).click();
    expect(await note.locator('[data-op="add"]').textContent()).toContain('Open the box carefully.');
    await inBothThemes(page, 'skill-changed-since');
    await note.getByRole('button', { name: 'Mark as seen' }).click();
    await note.waitFor({ state: 'detached' });
  });

  it('a watched folder shows a change as a pending update and applies it only when asked', async () => {
    const { page } = session;
    const folder = path.join(root, 'local');
    for (const name of ['one', 'two']) {
      mkdirSync(path.join(folder, name), { recursive: true });
      writeFileSync(path.join(folder, name, 'SKILL.md'), skillMd(name, `Does ${name}.`));
    }
    await core()['jobs.wait']({ id: (await core()['library.import']({ path: folder, label: 'local' })).id });
    await openLibrary();
    await rowOf('local').getByRole('button', { name: 'Watch folder' }).click();
    await rowOf('local').getByRole('button', { name: 'Stop watching' }).waitFor();
    await new Promise((r) => setTimeout(r, 400)); // chokidar's first scan
    writeFileSync(path.join(folder, 'two', 'SKILL.md'), skillMd('two', 'Does two, now better.'));
    const pending = rowOf('local').getByTestId('pending-update');
    await pending.waitFor();
    expect(await pending.textContent()).toContain('0 added, 1 changed, 0 removed');
    expect((await core()['library.get']({ name: 'two' })).description).toBe('Does two.');
    await inBothThemes(page, 'sources-pending-update', 'section[aria-label="Sources"]');
    await rowOf('local').getByRole('button', { name: 'Review pending update' }).click();
    await page.getByRole('button', { name: 'Apply all' }).click();
    await page.locator('[aria-label="Applied update"]', { hasText: '1 updated' }).waitFor();
    expect((await core()['library.get']({ name: 'two' })).description).toBe('Does two, now better.');
    await pending.waitFor({ state: 'detached' });
    await core()['sources.watch']({
      sourceId: (await core()['library.get']({ name: 'two' })).sourceId,
      watch: false,
    });
  });

  it('a watched folder that is deleted says the watch waits for it, and watches it again when it is back', async () => {
    const folder = path.join(root, 'vanishing');
    mkdirSync(path.join(folder, 'three'), { recursive: true });
    writeFileSync(path.join(folder, 'three', 'SKILL.md'), skillMd('three', 'Does three.'));
    await core()['jobs.wait']({
      id: (await core()['library.import']({ path: folder, label: 'vanishing' })).id,
    });
    await openLibrary();
    await rowOf('vanishing').getByRole('button', { name: 'Watch folder' }).click();
    await rowOf('vanishing').getByRole('button', { name: 'Stop watching' }).waitFor();
    await new Promise((r) => setTimeout(r, 400)); // chokidar's first scan
    rmSync(folder, { recursive: true, force: true });
    const state = rowOf('vanishing').getByTestId('watch-state');
    await state.waitFor();
    expect(await state.textContent()).toMatch(/^watch waiting: The folder .*vanishing is gone/);
    expect(await rowOf('vanishing').getByTestId('pending-update').textContent()).toContain('1 removed');
    await inBothThemes(session.page, 'sources-watch-waiting', 'section[aria-label="Sources"]');
    mkdirSync(path.join(folder, 'three'), { recursive: true });
    writeFileSync(path.join(folder, 'three', 'SKILL.md'), skillMd('three', 'Does three.'));
    await state.waitFor({ state: 'detached' });
    const sourceId = (await core()['library.get']({ name: 'three' })).sourceId;
    await core()['sources.watch']({ sourceId, watch: false });
  });

  it('deletes a source after saying what goes, and Undo brings its skills back with their states', async () => {
    const { page } = session;
    const one = await core()['library.get']({ name: 'one' });
    await core()['states.edit']({ skillId: one.id, precondition: null, completion: 'One is done.' });
    await page.reload();
    await openLibrary();
    await rowOf('local').getByRole('button', { name: 'Delete…' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Confirm delete' });
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain(
      'Delete the source “local” and its 2 skills? 1 has reviewed states',
    );
    await inBothThemes(page, 'sources-delete-confirm', 'section[aria-label="Sources"]');
    await confirm.getByRole('button', { name: 'Delete 2 skills' }).click();
    const undo = page.getByRole('status', { name: 'Undo delete' });
    await undo.waitFor();
    expect(await undo.textContent()).toContain('Deleted source local (2 skills)');
    await expect
      .poll(async () => (await core()['library.sources']({})).some((s) => s.label === 'local'))
      .toBe(false);
    await inBothThemes(page, 'sources-undo-bar');
    await undo.getByRole('button', { name: 'Undo' }).click();
    await undo.waitFor({ state: 'detached' });
    await rowOf('local').waitFor();
    expect(await core()['states.get']({ skillId: one.id })).toMatchObject({
      status: 'edited',
      completion: 'One is done.',
    });
  });

  it('the Trash restores any delete, not only the last, and deletes one for good after saying what goes', async () => {
    const { page } = session;
    const one = await core()['library.get']({ name: 'one' });
    const two = await core()['library.get']({ name: 'two' });
    const first = await core()['sources.delete']({ skillIds: [one.id] });
    await core()['sources.delete']({ skillIds: [two.id] });
    await page.reload();
    await openLibrary();
    const trash = page.getByRole('region', { name: 'Trash' });
    const rowOfDelete = (id: number) => trash.getByTestId(`trash-${id}`);
    await rowOfDelete(first.id).waitFor();
    expect(await rowOfDelete(first.id).textContent()).toContain('one1 skill, 1 with reviewed states');
    await inBothThemes(page, 'trash-panel', 'section[aria-label="Trash"]');
    // The older delete, while a newer one waits: undo could not reach it.
    await rowOfDelete(first.id).getByRole('button', { name: 'Restore' }).click();
    await expect.poll(() => trash.getByRole('status').textContent()).toContain('Restored one (1 skill)');
    await rowOfDelete(first.id).waitFor({ state: 'detached' });
    expect(await core()['states.get']({ skillId: one.id })).toMatchObject({ status: 'edited' });

    const second = (await core()['sources.trash']({}))[0]!;
    expect(second.label).toBe('two');
    await rowOfDelete(second.id).getByRole('button', { name: 'Delete for good…' }).click();
    const confirm = trash.getByRole('alertdialog', { name: 'Confirm delete for good' });
    expect(await confirm.textContent()).toContain('Delete “two” for good (1 skill)? This cannot be undone.');
    await confirm.getByRole('button', { name: 'Delete for good' }).click();
    await rowOfDelete(second.id).waitFor({ state: 'detached' });
    expect((await core()['sources.trash']({})).some((d) => d.id === second.id)).toBe(false);
  });

  it('a conflict shows both copies side by side, and kept copies are told apart by source and path', async () => {
    const { page } = session;
    const rival = path.join(root, 'rival');
    mkdirSync(path.join(rival, 'one'), { recursive: true });
    writeFileSync(path.join(rival, 'one', 'SKILL.md'), skillMd('one', 'Does one another way.'));
    await core()['jobs.wait']({ id: (await core()['library.import']({ path: rival, label: 'rival' })).id });
    await page.reload();
    const conflicts = page.locator('section[aria-label="Conflicts"]');
    await conflicts.waitFor();
    await conflicts.getByRole('button', { name: 'Compare' }).click();
    const diff = conflicts.getByRole('region', { name: 'Conflict diff of one' });
    await diff.waitFor();
    expect(await diff.textContent()).toContain('In the library: local · one');
    expect(await diff.textContent()).toContain('Incoming: rival · one');
    expect(await diff.locator('.cell[data-op="add"]').textContent()).toContain('Does one another way.');
    await inBothThemes(page, 'conflict-diff', 'section[aria-label="Conflicts"]');
    await conflicts.getByRole('button', { name: 'Keep both' }).click();
    await page.getByRole('searchbox', { name: 'Search' }).fill('one');
    const rows = page.locator('[role="listitem"] button[data-skill-name="one"]');
    await expect.poll(() => rows.count()).toBe(2);
    const labels = await rows.locator('.row-title .muted.small').allTextContents();
    expect(labels.sort()).toEqual(['local · one', 'rival · one']);
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
  });

  it('uploads a SKILL.md in browser mode, from the file picker or dropped on the window', async () => {
    const { page, problems } = session;
    await page.evaluate(() => (window.location.hash = '#/library'));
    const importPanel = page.locator('section[aria-label="Import"]');
    if (!(await importPanel.isVisible())) await page.getByRole('button', { name: 'Import…' }).click();
    await page.getByLabel('Upload a .zip or SKILL.md').setInputFiles({
      name: 'SKILL.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from(skillMd('uploaded-skill', 'Came in through the browser.')),
    });
    await importPanel.locator('.import-job[data-status="done"]').waitFor();
    expect((await core()['library.get']({ name: 'uploaded-skill' })).description).toBe(
      'Came in through the browser.',
    );
    const report = (await core()['library.importReport']({
      sourceId: (await core()['library.get']({ name: 'uploaded-skill' })).sourceId,
    })) as ImportReport;
    expect(report.added).toHaveLength(1);

    // A SKILL.md dropped anywhere on the window is uploaded and imported the same way.
    await page.evaluate(
      (text) => {
        const data = new DataTransfer();
        data.items.add(new File([text], 'SKILL.md', { type: 'text/markdown' }));
        for (const type of ['dragenter', 'dragover', 'drop'])
          window.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
      },
      skillMd('dropped-skill', 'Dropped on the window.'),
    );
    await expect
      .poll(async () => (await core()['library.list']({})).items.some((s) => s.name === 'dropped-skill'))
      .toBe(true);
    expect(problems.filter((p) => !p.includes('401') && !p.includes('Failed to load resource'))).toEqual([]);
  });
});
