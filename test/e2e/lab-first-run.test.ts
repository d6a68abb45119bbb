// A newcomer's first Selection lab run, with no LLM and no label set: the lab says that a run without a parse has no
// sub-tasks or states (so an empty graph is expected), and loads the bundled sample tasks with one button.
import { expect, it } from 'vitest';
import { describeInChromium, useBrowserMode } from './browser-session';
import { inBothThemes } from './harness';
import { importSampleLibrary } from './prepare';

describeInChromium('Selection lab, first run', () => {
  const session = useBrowserMode({
    name: 'lab-first-run',
    viewport: { width: 1280, height: 900 },
    prepare: (server) => importSampleLibrary(server.core),
  });

  it('says a run with no parse and no LLM has no states, and loads the sample tasks on request', async () => {
    const { server, page, problems } = session;
    expect((await server.core['settings.get']({})).llm.model).toBe('');
    expect(await server.core['labels.list']({})).toEqual([]);
    await page.goto(server.pageUrl);
    await page.evaluate(() => (window.location.hash = '#/select'));
    await page.locator('textarea[name="task"]').fill('heat a mug of water in the microwave');
    const note = page.getByTestId('no-parse-note');
    await expect.poll(() => note.textContent()).toContain('No LLM endpoint is set and no parse was given');

    await page.getByRole('button', { name: 'Select skills' }).click();
    await page.getByTestId('variant-answers').waitFor({ timeout: 60_000 });
    expect(await note.textContent()).toContain('full works like no-graph');
    await inBothThemes(page, 'lab-no-parse-note', 'section[aria-label="Task"]');

    await page.getByRole('button', { name: 'Load the sample tasks' }).click();
    await page.getByLabel('Sample task').selectOption('hh-01');
    const sets = await server.core['labels.list']({});
    expect(sets.map((s) => s.name)).toEqual(['sample']);
    // The sample task brings its hand parse: the run has states now, and the note is gone.
    await page.locator('textarea[name="task"]').waitFor();
    await expect.poll(() => note.count()).toBe(0);
    // The picker keeps showing the task chosen, until the task is edited; no button that does nothing.
    expect(await page.getByLabel('Sample task').inputValue()).toBe('hh-01');
    expect(await page.getByRole('button', { name: 'Parse below' }).count()).toBe(0);
    await page.locator('textarea[name="task"]').fill('heat a mug of water');
    await expect.poll(() => page.getByLabel('Sample task').inputValue()).toBe('');
    expect(problems).toEqual([]);
  }, 120_000);
});
