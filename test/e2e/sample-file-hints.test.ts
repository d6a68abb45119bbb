// The Reviewed-states panel and the empty Evaluation screen name the bundled sample files by their absolute paths on
// this host (a relative `resources/...` only worked from the repository root) and fill them in with one click; a states
// file written for another library names the skills it skipped; the panel saves the library's states as a download.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeInChromium, useBrowserMode } from './browser-session';
import { importSampleLibrary } from './prepare';

describeInChromium('sample file hints', () => {
  const session = useBrowserMode({
    name: 'sample-hints',
    open: true,
    pageOptions: { acceptDownloads: true },
    prepare: async ({ core }) => importSampleLibrary(core),
  });

  it('fills in the sample states and applies them', async () => {
    const { server, page } = session;
    const { sampleStates } = await server.core['settings.paths']({});
    expect(path.isAbsolute(sampleStates)).toBe(true);
    await page.evaluate(() => (window.location.hash = '#/library'));
    await page.getByRole('button', { name: 'Import…' }).click();
    const panel = page.getByRole('region', { name: 'Reviewed states' });
    expect(await panel.locator('code').textContent()).toBe(sampleStates);
    await panel.getByRole('button', { name: 'Use them' }).click();
    expect(await panel.getByLabel('States file').inputValue()).toBe(sampleStates);
    await panel.getByRole('button', { name: 'Apply states' }).click();
    await expect
      .poll(() => panel.getByTestId('states-applied').textContent())
      .toMatch(/^Applied states to 48 skills/);
  });

  it('names the skills of a states file that are not in the library', async () => {
    const { server, page } = session;
    const { resourcesDir } = await server.core['settings.paths']({});
    const panel = page.getByRole('region', { name: 'Reviewed states' });
    await panel.getByLabel('States file').fill(path.join(resourcesDir, 'zjunlp-states.jsonl'));
    await panel.getByRole('button', { name: 'Apply states' }).click();
    await expect
      .poll(() => panel.getByTestId('states-applied').textContent())
      .toMatch(
        /^Applied states to 0 skills; skipped \d+ names not in the library \(alfworld-appliance-navigator, alfworld-appliance-preparer, .*, … \d+ more\)\.$/,
      );
  });

  it('saves the chosen states as a download, the file states import reads', async () => {
    const { server, page } = session;
    const panel = page.getByRole('region', { name: 'Reviewed states' });
    const skillId = (await server.core['library.get']({ name: 'household-heat-object-stove' })).id;
    await server.core['states.verify']({ skillId });
    await panel.getByLabel('States to save').selectOption({ label: 'verified only' });
    const download = page.waitForEvent('download');
    await panel.getByRole('button', { name: 'Save states…' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('states-verified.jsonl');
    const saved = readFileSync((await file.path())!, 'utf8');
    expect(saved).toBe((await server.core['states.export']({ statuses: ['verified'] })).content);
    expect(
      saved
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([expect.objectContaining({ name: 'household-heat-object-stove', status: 'verified' })]);
    await expect
      .poll(() => panel.getByTestId('states-saved').textContent())
      .toBe('Saved the states of 1 skill to states-verified.jsonl.');
  });

  it('fills in the sample tasks on an Evaluation screen with no label set, and imports them', async () => {
    const { server, page, problems } = session;
    const { sampleTasks } = await server.core['settings.paths']({});
    await page.evaluate(() => (window.location.hash = '#/evaluation'));
    const sets = page.getByRole('region', { name: 'Label sets' });
    expect(await sets.locator('code').textContent()).toBe(sampleTasks);
    await sets.getByRole('button', { name: 'Use them' }).click();
    expect(await sets.locator('input[name="label-path"]').inputValue()).toBe(sampleTasks);
    await sets.getByRole('button', { name: 'Import label set' }).click();
    await expect.poll(async () => (await server.core['labels.list']({})).length).toBe(1);
    const said = sets.getByTestId('label-imported');
    await expect.poll(() => said.textContent()).toBe('New label set “sample-tasks”: 38 tasks.');
    // The same file again updates that set, and says so, instead of making a second one.
    await sets.getByRole('button', { name: 'Import label set' }).click();
    await expect
      .poll(() => said.textContent())
      .toBe('Updated the label set “sample-tasks” already here: 0 added, 38 updated; 38 tasks.');
    expect((await server.core['labels.list']({})).length).toBe(1);
    expect(problems).toEqual([]);
  });
});
