// Evaluation drives curation, in Chromium against the real core (browser mode, offline engines): run the sample
// evaluation, edit two skills' states in the skill screen, re-run and compare with the last run — the changed tasks and
// the edited skills are listed — then the drill-down toggle, a CSV export saved as a download, confusable pairs with
// their states side by side, cancelling a running evaluation, and a skill-creator trigger set imported for the skill
// typed beside its path with its per-skill trigger table. Screenshots of the screen in both themes and sizes.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeInChromium, useBrowserMode } from './browser-session';
import { inBothThemes } from './harness';
import { importSampleLibrary, importSampleStates, sampleTasks } from './prepare';

const edits = [
  {
    name: 'household-make-coffee',
    precondition: 'The hot mug is in the coffee machine.',
    completion: 'The mug is full of coffee and the coffee machine is off.',
  },
  {
    name: 'household-heat-object-microwave',
    precondition: 'The hot pan is on the dining table.',
    completion: 'The pan on the dining table is hot and the microwave is off.',
  },
];

describeInChromium('evaluation: re-run and compare with the last run', () => {
  let dir: string;
  let smallSet: number;
  let fullSet: number;
  let manyTasks: number;
  const session = useBrowserMode({
    name: 'eval',
    viewport: { width: 1600, height: 1000 },
    pageOptions: { acceptDownloads: true },
    timeoutMs: 60_000,
    setupTimeoutMs: 180_000,
    prepare: async ({ core }) => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'curator-e2e-eval-'));
      await core['settings.update']({ patch: { selection: { preset: 'offline' } } });
      await importSampleLibrary(core);
      await importSampleStates(core);
      const tasks = readFileSync(sampleTasks, 'utf8');
      const six = path.join(dir, 'six-tasks.jsonl');
      writeFileSync(six, tasks.split('\n').slice(0, 6).join('\n'));
      smallSet = (await core['labels.import']({ path: six, name: 'six sample tasks' })).id;
      // The offline engines take milliseconds a task: twenty copies of the sample tasks keep a run going long enough
      // to cancel it by hand.
      const many = path.join(dir, 'many-tasks.jsonl');
      const lines = tasks.split('\n').filter(Boolean);
      const copies = Array.from({ length: 20 }, (_, copy) =>
        lines.map((l) => {
          const item = JSON.parse(l) as { id: string };
          return JSON.stringify({ ...item, id: `${item.id}-${copy}` });
        }),
      ).flat();
      writeFileSync(many, copies.join('\n'));
      manyTasks = copies.length;
      fullSet = (await core['labels.import']({ path: many, name: 'many' })).id;
    },
    cleanup: () => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  });

  const openEvaluation = async () => {
    const { server, page } = session;
    await page.goto(server.pageUrl);
    await page.evaluate(() => (window.location.hash = '#/evaluation'));
    await page.getByLabel('Label set', { exact: true }).waitFor();
  };

  it('lists the changed tasks and the edited skills after a re-run', async () => {
    const { server, page } = session;
    await openEvaluation();
    await page.getByLabel('Label set', { exact: true }).selectOption(String(smallSet));
    await page.getByLabel('k values').fill('1');
    await page.getByRole('button', { name: 'Run evaluation' }).click();
    await page.getByTestId('comparison-table').waitFor();
    // The metric a curator cannot guess says what it counts.
    const head = (text: string) =>
      page.getByTestId('comparison-table').locator('thead th', { hasText: text });
    expect(await head('Stage cov.').getAttribute('title')).toContain('share of a task’s gold groups');
    expect(await head('Hit@1').getAttribute('title')).toContain('the winner of a graph answer’s first stage');
    // No model is set up: the pairs are the offline scorer's, and the dense rows rank by the keyword recall.
    expect(await head('Pairs/task').getAttribute('title')).toContain('the offline scorer lexical:');
    expect(await page.getByTestId('dense-is-keywords').textContent()).toContain(
      'keyword engine lexical:bm25',
    );
    const first = (await server.core['eval.list']({}))[0]!;
    expect(first.status).toBe('done');

    // Two skills' states edited where a curator edits them: the skill screen.
    for (const edit of edits) {
      const { id } = await server.core['library.get']({ name: edit.name });
      await page.evaluate((hash) => (window.location.hash = hash), `#/skill/${id}`);
      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      await page.locator('textarea[name="precondition"]').fill(edit.precondition);
      await page.locator('textarea[name="completion"]').fill(edit.completion);
      await page.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => page.getByTestId('completion').textContent()).toBe(edit.completion);
    }

    await page.evaluate(() => (window.location.hash = '#/evaluation'));
    await page.getByLabel('Label set', { exact: true }).selectOption(String(smallSet));
    await page.getByRole('button', { name: 'Re-run and compare with the last run' }).click();
    const edited = page.getByTestId('edited-skills');
    await edited.waitFor();
    const second = (await server.core['eval.list']({}))[0]!;
    expect(second.runId).toBeGreaterThan(first.runId);
    const expected = await server.core['eval.compare']({ runId: second.runId });
    expect(expected.baseRunId).toBe(first.runId);

    const listedSkills = await edited
      .locator('li[data-skill]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-skill')));
    expect(listedSkills.sort()).toEqual(edits.map((e) => e.name).sort());
    const listedTasks = await page
      .getByTestId('changed-tasks')
      .locator('li[data-item]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-item')));
    expect(listedTasks.length).toBeGreaterThan(0);
    expect(listedTasks).toEqual(expected.changedTasks.map((t) => t.itemId));
    expect(await page.getByTestId('setup-changes').textContent()).toMatch(/Changed since run \d+: states/);
    expect(await page.getByTestId('edited-skills').locator('h3').textContent()).toBe(
      'Skills changed between the runs (2: 2 states edited)',
    );

    await page.setViewportSize({ width: 1600, height: 1000 });
    await inBothThemes(
      page,
      'evaluation-compare-1600x1000',
      'section[aria-label="Compared with an earlier run"]',
    );
    await inBothThemes(page, 'evaluation-charts-1600x1000', 'section[aria-label="Charts"]');
    await page.setViewportSize({ width: 1000, height: 700 });
    await inBothThemes(
      page,
      'evaluation-compare-1000x700',
      'section[aria-label="Compared with an earlier run"]',
    );
    await inBothThemes(page, 'evaluation-charts-1000x700', 'section[aria-label="Charts"]');
    await page.emulateMedia({ colorScheme: 'light' });
  }, 300_000);

  it('drills down to the tasks where variants differ, exports a CSV file, shows confusable states side by side', async () => {
    const { server, page } = session;
    const runId = (await server.core['eval.list']({}))[0]!.runId;
    const report = await server.core['eval.show']({ runId });
    const chips = page.getByTestId('task-chips').locator('button');
    expect(await chips.count()).toBe(report.differences.length);
    await page.getByLabel(/Only tasks where variants differ/).uncheck();
    expect(await chips.count()).toBe(new Set(report.tasks.map((t) => t.itemId)).size);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'CSV', exact: true }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`evaluation-${runId}.csv`);
    const saved = readFileSync((await file.path())!, 'utf8');
    expect(saved).toBe((await server.core['eval.export']({ runId, format: 'csv' })).content);
    await page.getByTestId('export-saved').waitFor();

    const pairs = await server.core['eval.confusability']({ runId });
    expect(pairs.pairs.length).toBeGreaterThan(0);
    const table = page.getByTestId('confusable-pairs');
    await table.locator('button').first().click();
    const side = page.getByTestId('states-side-by-side');
    const top = pairs.pairs[0]!;
    for (const skill of [top.a, top.b]) {
      const states = await server.core['states.get']({ skillId: skill.skillId! });
      await expect
        .poll(() => side.locator(`[data-skill="${skill.name}"] dd`).first().textContent())
        .toBe(states.precondition ?? 'None');
    }
    await inBothThemes(page, 'evaluation-confusable-1000x700', 'section[aria-label="Confusable skills"]');
    await page.setViewportSize({ width: 1600, height: 1000 });
    await inBothThemes(page, 'evaluation-confusable-1600x1000', 'section[aria-label="Confusable skills"]');
    await page.emulateMedia({ colorScheme: 'light' });
  }, 180_000);

  it('opens the newest run when you come back to the screen', async () => {
    const { server, page } = session;
    const newest = (await server.core['eval.list']({}))[0]!.runId;
    await page.evaluate(() => (window.location.hash = '#/library'));
    await page.evaluate(() => (window.location.hash = '#/evaluation'));
    await page.getByRole('heading', { name: new RegExp(`^Run ${newest}: `) }).waitFor();
    expect(await page.locator('.chip.active', { hasText: `#${newest} ` }).count()).toBe(1);
  }, 60_000);

  it('cancels a running evaluation from the screen; finished tasks are kept', async () => {
    const { server, page, problems } = session;
    await openEvaluation();
    await page.getByLabel('Label set', { exact: true }).selectOption(String(fullSet));
    await page.getByLabel('k values').fill('1, 2, 3');
    await page.getByRole('button', { name: 'Run evaluation' }).click();
    await page.getByRole('button', { name: 'Cancel evaluation' }).click();
    await page.getByTestId('eval-cancelled').waitFor();
    const run = (await server.core['eval.list']({}))[0]!;
    expect(run.status).toBe('cancelled');
    const report = await server.core['eval.show']({ runId: run.runId });
    expect(new Set(report.tasks.map((t) => t.itemId)).size).toBeLessThan(manyTasks);
    expect(problems).toEqual([]);
  }, 180_000);

  it('says under the chosen set which of its gold skills the library lacks, and that a deleted one is in the trash', async () => {
    const { server, page, problems } = session;
    await openEvaluation();
    await page.getByLabel('Label set', { exact: true }).selectOption(String(smallSet));
    const note = page.getByTestId('gold-missing');
    expect(await note.count()).toBe(0);
    // Every skill has states; one that has none is counted, since the graph variants read it as spanning any task.
    const unparsed = page.getByTestId('unparsed-note');
    expect(await unparsed.count()).toBe(0);
    const lone = path.join(dir, 'lone', 'lone-skill');
    mkdirSync(lone, { recursive: true });
    writeFileSync(
      path.join(lone, 'SKILL.md'),
      '---\nname: lone-skill\ndescription: Has no states yet.\n---\nSteps.\n',
    );
    const imported = await server.core['library.import']({ path: path.dirname(lone) });
    expect((await server.core['jobs.wait']({ id: imported.id })).status).toBe('done');
    await expect
      .poll(() => unparsed.textContent())
      .toMatch(
        /^1 of the library’s 49 skills has no states: the graph variants take it with precondition None/,
      );
    const { id } = await server.core['library.get']({ name: 'household-put-object-in-receptacle' });
    const deleted = await server.core['sources.delete']({ skillIds: [id] });
    await expect
      .poll(() => note.textContent())
      .toBe(
        '1 of the 8 gold skills of this label set is not in the library (household-put-object-in-receptacle); it ' +
          'counts as a miss. It is in the trash: restore it in Library → Sources… → Trash.',
      );
    await server.core['sources.restoreDeleted']({ id: deleted.id });
    await expect.poll(() => note.count()).toBe(0);
    expect(problems).toEqual([]);
  }, 120_000);

  it('runs with the scoring preset picked on the screen, whatever the Settings say', async () => {
    const { server, page } = session;
    await openEvaluation();
    const picker = page.getByLabel('Scoring preset');
    // The Settings' preset is named once the settings have loaded.
    await expect.poll(() => picker.locator('option').first().textContent()).toBe('offline (from Settings)');
    await page.getByLabel('Label set', { exact: true }).selectOption(String(smallSet));
    await page.getByLabel('k values').fill('1');
    await picker.selectOption('exact');
    const before = (await server.core['eval.list']({}))[0]!.runId;
    await page.getByRole('button', { name: 'Run evaluation' }).click();
    await page.getByRole('heading', { name: new RegExp(`^Run ${before + 1}: `) }).waitFor();
    expect((await server.core['eval.library']({ runId: before + 1 }))!.engines.preset).toBe('exact');
    // Coming back shows the newest run with its own set chosen, not the first set by name ("many").
    await page.evaluate(() => (window.location.hash = '#/library'));
    await page.reload();
    await page.evaluate(() => (window.location.hash = '#/evaluation'));
    await page.getByRole('heading', { name: new RegExp(`^Run ${before + 1}: `) }).waitFor();
    await expect
      .poll(() => page.getByLabel('Label set', { exact: true }).inputValue())
      .toBe(String(smallSet));
  }, 120_000);

  it('imports a skill-creator trigger set for the skill typed beside it and shows its trigger table, then the figures compared', async () => {
    const { server, page, problems } = session;
    const skill = 'household-make-coffee';
    const file = path.join(dir, 'coffee-queries.json');
    writeFileSync(
      file,
      JSON.stringify([
        { query: 'make a cup of coffee with the coffee machine', should_trigger: true },
        { query: 'brew fresh coffee in the mug', should_trigger: true },
        { query: 'water the houseplant on the windowsill', should_trigger: false },
      ]),
    );
    await openEvaluation();
    await page.getByLabel('Label set path').fill(file);
    await page.getByLabel('Skill of a trigger set').fill(skill);
    await page.getByRole('button', { name: 'Import label set' }).click();
    await expect
      .poll(() => page.getByTestId('label-imported').textContent())
      .toContain(`Read as skill-creator trigger queries for ${skill}.`);
    for (const v of ['full', 'no-parse', 'no-graph', 'no-split'])
      await page.locator(`input[name="variant-${v}"]`).uncheck();
    await page.locator('input[name="variant-dense"]').check();
    await page.getByLabel('k values').fill('1');
    await page.getByRole('button', { name: 'Run evaluation' }).click();
    const table = page.getByTestId('trigger-figures');
    await table.waitFor();
    const runId = (await server.core['eval.list']({}))[0]!.runId;
    const figures = (await server.core['eval.show']({ runId })).triggers![0]!.skills[0]!;
    expect(figures).toMatchObject({ skill, shouldTrigger: 2, shouldNot: 1 });
    const cells = await table.locator(`tr[data-skill="${skill}"] td`).allTextContents();
    expect(cells.slice(0, 4)).toEqual(
      [figures.shouldTrigger, figures.triggered, figures.shouldNot, figures.falselyTriggered].map(String),
    );

    await page.getByRole('button', { name: 'Re-run and compare with the last run' }).click();
    const compared = page.getByTestId('trigger-changes');
    await compared.waitFor();
    expect(await compared.locator(`tr[data-skill="${skill}"] td`).last().textContent()).toBe('none');
    expect(problems).toEqual([]);
  }, 120_000);
});
