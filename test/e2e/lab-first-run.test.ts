// A newcomer's first Selection lab run, with no LLM and no label set: the lab says that a run without a parse has no
// sub-tasks or states (so an empty graph is expected), and loads the bundled sample tasks with one button. With no
// model set up, the lab tells the truth about presets that need one (one message, naming a Settings heading that
// exists, and no run button), shows no estimate before there is a task, keeps a huge task to one line in Recent runs,
// and draws no graph for no-parse, which reads no states. A task typed with no parse that a label set holds says it
// will use that label's hand parse, instead of warning that the run has no states.
import { expect, it } from 'vitest';
import { localModelsPlace } from '../../src/shared/settings-places';
import { describeInChromium, useBrowserMode } from './browser-session';
import { inBothThemes, screenshot } from './harness';
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
    // No model is set up: the engines are named by what they are, and the Settings' exact preset as scored offline.
    await page.locator('.variant-card[data-variant="full"]').click();
    expect(await page.getByTestId('trace-engines').textContent()).toBe(
      'recall: lexical:bm25 (keywords) · scorer: lexical:bm25-calibrated-v6 (offline, no cross-encoder)',
    );
    // Every candidate dropped for the same reason: said once above the table, not on each row.
    expect(await page.getByTestId('all-dropped').textContent()).toMatch(
      /^No candidate has an edge: the task has no parse/,
    );
    expect(await page.getByTestId('candidates-table').textContent()).not.toContain('the task has no parse');
    expect(await page.getByTestId('trace-scorers').textContent()).toMatch(
      /^ · preset exact, scored offline \(no model set up\): lexical:bm25-calibrated-v6 for every use/,
    );
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

  it('says when a task typed without a parse will use the hand parse a label set gives it, and shows it', async () => {
    const { page, problems } = session;
    const taskField = page.locator('textarea[name="task"]');
    if ((await page.getByRole('button', { name: 'Clear parse' }).count()) > 0)
      await page.getByRole('button', { name: 'Clear parse' }).click();
    // The demo task, typed: the sample labels give it a hand parse, which a run uses; no warning of no states.
    await taskField.fill('put a hot mug in the coffee machine');
    const stored = page.getByTestId('stored-parse-note');
    await expect
      .poll(() => stored.textContent())
      .toBe('No parse given: Select skills will use the hand parse a label set gives this task. Show it');
    expect(await page.getByTestId('no-parse-note').count()).toBe(0);
    await stored.getByRole('button', { name: 'Show it' }).click();
    await expect.poll(() => page.getByLabel('State 0').inputValue()).toContain('kitchen');
    expect(await page.getByText('label · cached').count()).toBe(1);
    expect(await stored.count()).toBe(0);

    // A task no label holds: the warning, and no word of a stored parse.
    await page.getByRole('button', { name: 'Clear parse' }).click();
    await taskField.fill('put a cold mug in the coffee machine');
    await page.getByTestId('no-parse-note').waitFor();
    expect(await stored.count()).toBe(0);
    expect(problems).toEqual([]);
  }, 120_000);

  it('says once and truly that fast and mixed need a model, and keeps the run button off for them', async () => {
    const { page, problems } = session;
    await page.evaluate(() => (window.location.hash = '#/select'));
    const taskField = page.locator('textarea[name="task"]');
    await taskField.fill('');
    const estimate = page.getByTestId('selection-estimate');
    await expect.poll(() => estimate.textContent()).toBe('Type a task to see the cost');
    // Before a task is typed, the preset's note already says what will score.
    await page.getByLabel('Scoring preset').selectOption('exact');
    await expect.poll(() => page.getByTestId('preset-fallback').textContent()).toContain(localModelsPlace);
    await page.getByLabel('Scoring preset').selectOption('fast');
    await expect
      .poll(() => page.getByTestId('preset-unavailable').textContent())
      .toContain('The fast preset scores with an embedder');

    await taskField.fill('heat a mug of water in the microwave');
    const run = page.getByRole('button', { name: 'Select skills' });
    await page.getByLabel('Scoring preset').selectOption('offline');
    await expect.poll(() => estimate.textContent()).toMatch(/^Estimate: up to \d+ pairs/);
    for (const preset of ['fast', 'mixed']) {
      await page.getByLabel('Scoring preset').selectOption(preset);
      await expect
        .poll(() => estimate.textContent())
        .toContain(`The ${preset} preset scores with an embedder`);
      expect(await estimate.textContent()).toContain(localModelsPlace);
      expect(await page.getByTestId('preset-fallback').count()).toBe(0);
      expect(await run.isDisabled()).toBe(true);
      expect(await run.getAttribute('title')).toContain(`The ${preset} preset scores with an embedder`);
    }
    // exact falls back to the lexical engine and runs; it says so, pointing at the same place.
    await page.getByLabel('Scoring preset').selectOption('exact');
    await expect.poll(() => page.getByTestId('preset-fallback').textContent()).toContain(localModelsPlace);
    await expect.poll(() => run.isDisabled()).toBe(false);

    // The place every message points at is a heading the Settings screen shows.
    await page.evaluate(() => (window.location.hash = '#/settings'));
    await page.locator('legend').first().waitFor();
    const heading = localModelsPlace.replace(/^Settings → /, '');
    expect(await page.locator('legend').allTextContents()).toContain(heading);
    // fast and mixed are said to need a model without asking for an estimate the core would refuse (503s in the log).
    expect(problems).toEqual([]);
    problems.length = 0;
  }, 120_000);

  it('keeps a huge task to one line in Recent runs, and draws no graph for no-parse', async () => {
    const { server, page, problems } = session;
    const huge = 'Put the mug in the microwave and heat the water. '.repeat(540);
    expect(huge.length).toBeGreaterThan(26_000);
    await server.core['select.compare']({ task: huge, variants: ['no-parse'], preset: 'offline' });
    await page.evaluate(() => (window.location.hash = '#/select'));
    await page.reload();
    await page.getByLabel('Sample task').selectOption('hh-01');
    await page.getByText('Recent runs').click();
    const row = page.locator('[data-testid="recent-runs"] li').filter({ hasText: 'Put the mug' }).first();
    const shape = await row.evaluate((li) => ({
      height: li.getBoundingClientRect().height,
      lineHeight: parseFloat(getComputedStyle(li).lineHeight) || 20,
      clipped: li.scrollWidth > li.clientWidth,
      overflow: getComputedStyle(li).textOverflow,
    }));
    expect(shape.height).toBeLessThan(shape.lineHeight * 1.5);
    expect(shape).toMatchObject({ clipped: true, overflow: 'ellipsis' });
    expect(await row.locator('[title]').getAttribute('title')).toBe(huge.trim());
    await screenshot(page, 'lab-recent-runs-huge-task');

    // The sample task's hand parse has states, and the sample skills none: full notes that; no-parse reads neither.
    await page.getByLabel('Scoring preset').selectOption('offline');
    await page.getByRole('button', { name: 'Select skills' }).click();
    await page.getByTestId('variant-answers').waitFor({ timeout: 60_000 });
    await page.getByTestId('execution-graph').waitFor();
    await page.locator('.variant-card[data-variant="no-parse"]').click();
    await expect
      .poll(() => page.getByTestId('ranked-note').textContent())
      .toMatch(/^no-parse reads no states/);
    expect(await page.getByTestId('execution-graph').count()).toBe(0);
    expect(await page.locator('section[aria-label="Execution graph"]').textContent()).not.toContain(
      'has no parse',
    );
    expect(problems).toEqual([]);
  }, 120_000);
});
