// Uploading a zip again in browser mode, in Debian's Chromium: a newer download of pack.zip, which the browser saved as
// "pack (1).zip", updates the source the first upload made and the report says so; a zip dropped on the Import panel is
// uploaded and imported once (the window's own drop handler does not import it a second time).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { skillMd } from '../fixtures/git-skills';
import { writeZip } from '../fixtures/skills/library-fixture';
import { describeInChromium, useBrowserMode } from './browser-session';

describeInChromium('uploading a zip again', () => {
  let root: string;
  const session = useBrowserMode({
    name: 'upload-again',
    open: '#/library',
    prepare: async () => {
      root = mkdtempSync(path.join(os.tmpdir(), 'sc-e2e-upload-'));
    },
    cleanup: () => root && rmSync(root, { recursive: true, force: true }),
  });

  const zipOf = async (skills: Record<string, string>): Promise<Buffer> => {
    const file = path.join(root, 'made.zip');
    await writeZip(
      file,
      Object.entries(skills).map(([name, description]) => ({
        name: `pack/${name}/SKILL.md`,
        content: skillMd(name, description),
      })),
    );
    return readFileSync(file);
  };
  const importJobs = async () =>
    (await session.server.core['jobs.list']({})).filter((j) => j.kind === 'library.import').length;

  it('updates the source the first upload made, says so, and imports a zip dropped on the panel once', async () => {
    const { page, problems } = session;
    const core = session.server.core;
    const importPanel = page.locator('section[aria-label="Import"]');
    // The library starts empty, so its Import panel opens by itself once the empty library is known: wait for that
    // instead of toggling it with the Import… button, which would race the opening.
    await page.getByTestId('empty-library-hint').waitFor();
    await importPanel.waitFor();
    const picker = page.getByLabel('Upload a .zip or SKILL.md');
    await picker.setInputFiles({
      name: 'pack.zip',
      mimeType: 'application/zip',
      buffer: await zipOf({ one: 'First.', two: 'Second.' }),
    });
    await importPanel.locator('.import-job[data-status="done"]').waitFor();
    await expect.poll(() => importPanel.locator('[data-count-of="added"]').textContent()).toContain('2');
    expect(await importPanel.getByTestId('reimport-of').count()).toBe(0);

    await picker.setInputFiles({
      name: 'pack (1).zip',
      mimeType: 'application/zip',
      buffer: await zipOf({ one: 'First, newer.', three: 'Third.' }),
    });
    await expect.poll(() => importPanel.getByTestId('reimport-of').textContent()).toContain('pack.zip');
    expect(await importPanel.locator('[data-count-of="updated"]').textContent()).toContain('1');
    expect(await importPanel.getByTestId('removed-list').textContent()).toContain('two');
    const sources = await core['library.sources']({});
    expect(sources.map((s) => [s.label, s.skillCount])).toEqual([['pack.zip', 2]]);

    const before = await importJobs();
    const bytes = [...(await zipOf({ one: 'First, newer.', three: 'Third.' }))];
    await page.evaluate((b) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(b)], 'pack.zip', { type: 'application/zip' }));
      const panel = document.querySelector('section[aria-label="Import"]')!;
      for (const type of ['dragenter', 'dragover', 'drop'])
        panel.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
    }, bytes);
    await expect.poll(importJobs).toBe(before + 1);
    await importPanel.locator('[data-count-of="unchanged"]', { hasText: '2' }).waitFor();
    // A second import would start a moment after the first: give it that moment.
    await page.waitForTimeout(1500);
    expect(await importJobs()).toBe(before + 1);
    expect((await core['library.sources']({})).length).toBe(1);
    expect(problems.filter((p) => !p.includes('401') && !p.includes('Failed to load resource'))).toEqual([]);
  });
});
