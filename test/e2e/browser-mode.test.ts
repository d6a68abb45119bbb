// End to end in Debian's Chromium against the browser mode on a fresh data folder: import the sample library, search,
// review a skill's states (surviving a reload), read the jobs, evaluate variants, run a selection and a what-if.
// Screenshots of each screen in both themes go to test-output/screenshots/.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { startOpenAiServer } from '../fixtures/openai-server';
import { describeInChromium, useBrowserMode } from './browser-session';
import { inBothThemes, screenshotDir } from './harness';
import { sampleLibrary, sampleTasks } from './prepare';

describeInChromium('browser mode in Chromium', () => {
  const session = useBrowserMode({
    name: 'browser-mode',
    prepare: async () => console.log(`Screenshots: ${screenshotDir}`),
  });

  const go = async (hash: string, ready: string) => {
    const { page } = session;
    await page.evaluate((h) => (window.location.hash = h), hash);
    await page.locator(ready).first().waitFor();
  };

  it('opens with the token from the address, then drops it from the address bar', async () => {
    const { server, page } = session;
    await page.goto(server.pageUrl);
    await page.locator('.topbar').waitFor();
    expect(page.url()).not.toContain('token=');
    await page.getByRole('heading', { name: 'The library is empty' }).waitFor();
    // The hint names where the samples are on this host, not a path relative to wherever the server started.
    await expect.poll(() => page.getByTestId('empty-library-hint').textContent()).toContain(sampleLibrary);
    await inBothThemes(page, 'library-empty');
  });

  it('imports the sample library and shows the validation report', async () => {
    const { page } = session;
    await page.getByLabel('Path to import').fill(sampleLibrary);
    await page.locator('section[aria-label="Import"] button[type="submit"]').click();
    await page.locator('.import-job[data-status="done"]').waitFor({ timeout: 60_000 });
    await page.locator('.import-report').waitFor();
    const added = Number(await page.locator('[data-count-of="added"] strong').textContent());
    expect(added).toBeGreaterThanOrEqual(40);
    await page.waitForFunction(
      (n) => Number(document.querySelector('.skill-list')?.getAttribute('data-count')) === n,
      added,
    );
    await expect.poll(() => page.getByTestId('library-stats').textContent()).toContain(`${added} skills`);
    await inBothThemes(page, 'library-imported');
  });

  it('searches as you type', async () => {
    const { page } = session;
    await page.getByLabel('Search', { exact: true }).fill('microwave heat');
    await page.getByTestId('search-summary').waitFor();
    const first = page.locator('.skill-row button').first();
    await expect.poll(() => first.getAttribute('data-skill-name')).toBe('household-heat-object-microwave');
    expect(await page.locator('.skill-row mark').count()).toBeGreaterThan(0);
    await inBothThemes(page, 'library-search');
  });

  it('opens a skill, edits and verifies its states, and they survive a reload', async () => {
    const { page } = session;
    await page.locator('.skill-row button[data-skill-name="household-heat-object-microwave"]').click();
    await expect
      .poll(() => page.getByTestId('skill-name').textContent())
      .toBe('household-heat-object-microwave');
    await page.getByTestId('skill-markdown').locator('h1, h2, p').first().waitFor();
    expect(await page.getByTestId('skill-markdown').locator('script').count()).toBe(0);

    await page.keyboard.press('e');
    const pre = page.locator('textarea[name="precondition"]');
    await pre.waitFor();
    await pre.fill('The robot holds the object and stands at a closed, empty microwave.');
    await page.locator('textarea[name="completion"]').fill('The object is hot and the robot holds it.');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => page.getByTestId('completion').textContent())
      .toBe('The object is hot and the robot holds it.');
    await page.locator('section[aria-label="Parsed states"] .badge.status-edited').waitFor();
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.locator('section[aria-label="Parsed states"] .badge.status-verified').waitFor();

    await page.reload();
    await page.locator('section[aria-label="Parsed states"] .badge.status-verified').waitFor();
    expect(await page.getByTestId('precondition').textContent()).toBe(
      'The robot holds the object and stands at a closed, empty microwave.',
    );
    expect(await page.locator('ol.history > li').count()).toBeGreaterThanOrEqual(2);
    await inBothThemes(page, 'skill');

    // The review queue: j moves to the next skill that is not verified, k comes back.
    await page.keyboard.press('j');
    await expect
      .poll(() => page.getByTestId('skill-name').textContent())
      .not.toBe('household-heat-object-microwave');
    await page.keyboard.press('k');
    await expect
      .poll(() => page.getByTestId('skill-name').textContent())
      .toBe('household-heat-object-microwave');
  });

  it('filters the library by review status', async () => {
    const { page } = session;
    await go('#/library', '.skill-list');
    await page.getByLabel('Search', { exact: true }).fill('');
    await page.getByLabel('Review status').selectOption('verified');
    await page.waitForFunction(
      () => document.querySelector('.skill-list')?.getAttribute('data-count') === '1',
    );
    expect(await page.locator('.skill-row button').first().getAttribute('data-skill-name')).toBe(
      'household-heat-object-microwave',
    );
    await page.getByLabel('Review status').selectOption('');
  });

  it('lists the finished import on the jobs screen', async () => {
    const { page } = session;
    await go('#/jobs', 'section[aria-label="Past jobs"]');
    await page.locator('li.job[data-status="done"]').first().waitFor();
    await inBothThemes(page, 'jobs');
  });

  it('runs an evaluation on the sample tasks and shows the comparison', async () => {
    const { page } = session;
    await go('#/evaluation', 'section[aria-label="Label sets"]');
    await page.getByLabel('Label set path').fill(sampleTasks);
    await page.getByRole('button', { name: 'Import label set' }).click();
    await page.getByLabel('Label set', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Run evaluation' }).click();
    const table = page.getByTestId('comparison-table');
    await table.waitFor({ timeout: 90_000 });
    const variants = await table
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-variant')));
    expect(new Set(variants)).toEqual(new Set(['full', 'no-parse', 'no-graph', 'no-split', 'dense']));
    const f1 = await table.locator('tbody tr[data-variant="full"] td').nth(2).textContent();
    expect(Number(f1)).toBeGreaterThan(0);
    expect(Number(f1)).toBeLessThanOrEqual(1);
    await page.locator('section[aria-label="Per task"] .chip').first().click();
    await page.getByTestId('task-detail').waitFor();
    await inBothThemes(page, 'evaluation', 'section[aria-label="Label sets"]');
    await inBothThemes(page, 'evaluation-table', 'section[aria-label="Comparison"]');
    await inBothThemes(page, 'evaluation-charts', 'section[aria-label="Charts"]');
    await inBothThemes(page, 'evaluation-task', 'section[aria-label="Per task"]');

    // Each task's selection opens in the lab with its trace.
    await page.getByTestId('task-detail').locator('tbody a').first().click();
    await page.getByTestId('execution-graph').waitFor();
    expect(await page.locator('textarea[name="task"]').inputValue()).not.toBe('');
  });

  it('runs a selection on a sample task, draws its graph and answer, and replays a what-if', async () => {
    const { page } = session;
    await go('#/select', 'section[aria-label="Task"]');
    await page.getByLabel('Sample task').selectOption('hh-01');
    await expect
      .poll(() => page.locator('textarea[name="task"]').inputValue())
      .toBe('put a hot mug in the coffee machine');
    await page.getByRole('button', { name: 'Select skills' }).click();
    const graph = page.getByTestId('execution-graph');
    await graph.waitFor({ timeout: 60_000 });
    const nodes = await graph.locator('[data-testid="graph-node"], [data-testid="graph-split"]').count();
    expect(nodes).toBe(4);
    expect(await graph.locator('[data-testid="graph-edge"]').count()).toBeGreaterThan(0);
    expect(await graph.locator('[data-testid="graph-stage"]').count()).toBeGreaterThanOrEqual(1);
    const answer = (await page.getByTestId('answer').textContent()) ?? '';
    expect(answer).toMatch(/household-/);
    expect(await page.getByTestId('variant-answers').locator('.variant-card').count()).toBe(4);
    expect(await page.getByTestId('stage-table').count()).toBeGreaterThanOrEqual(1);
    await inBothThemes(page, 'selection-task');
    await inBothThemes(page, 'selection', 'section[aria-label="Variants side by side"]');
    await inBothThemes(page, 'selection-stages', 'section[aria-label="Candidates"]');

    const state = page.getByLabel('What-if state 1');
    await state.fill('The robot holds the mug, which is cold.');
    await state.press('Enter');
    await page.locator('section[aria-label="Execution graph"] .badge', { hasText: 'what-if' }).waitFor();
    await inBothThemes(page, 'selection-what-if', 'section[aria-label="Execution graph"]');
  });

  it('shows the settings from the schema, saves a change, and tests the LLM endpoint in plain words', async () => {
    const { page } = session;
    await go('#/settings', 'section[aria-label="Selection"]');
    const recallK = page.locator('input[name="selection.recallK"]');
    expect(await recallK.inputValue()).toBe('30');
    await inBothThemes(page, 'settings');
    await recallK.fill('25');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    await page.reload();
    await expect.poll(() => page.locator('input[name="selection.recallK"]').inputValue()).toBe('25');

    // Nothing listens on the default endpoint here: the answer says so instead of failing silently.
    await page.getByRole('button', { name: 'Test connection' }).click();
    const report = page.getByTestId('llm-test');
    await report.waitFor({ timeout: 30_000 });
    expect(await report.textContent()).toMatch(/^Not connected: \S/);
    await inBothThemes(page, 'settings-llm', 'section[aria-label="LLM endpoint"]');
  });

  it('parses the library through an LLM endpoint, with tokens and cost on the jobs screen', async () => {
    const { page } = session;
    const llm = await startOpenAiServer({
      models: ['fixture-model'],
      reply: () => ({
        content:
          'Precondition_State: The robot stands where the skill starts.\nCompletion_State: The skill is done.',
        usage: { prompt_tokens: 120, completion_tokens: 18 },
      }),
    });
    try {
      await go('#/settings', 'section[aria-label="LLM endpoint"]');
      await page.locator('input[name="llm.baseURL"]').fill(llm.baseURL);
      await page.locator('input[name="llm.model"]').fill('fixture-model');
      await page.locator('input[name="llm.promptPricePerMTok"]').fill('2');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Saved.').waitFor();
      await page.getByRole('button', { name: 'Test connection' }).click();
      await expect.poll(() => page.getByTestId('llm-test').textContent()).toMatch(/^Connected/);

      await go('#/jobs', 'section[aria-label="Start a job"]');
      await page.getByRole('button', { name: 'Parse unparsed skills' }).click();
      const job = page.locator('li.job[data-job-kind="parse.skills"][data-status="done"]');
      await job.waitFor({ timeout: 90_000 });
      const counters = (await job.locator('.counters').textContent()) ?? '';
      expect(counters).toMatch(/prompt tokens: [1-9]/);
      expect(counters).toMatch(/est\. cost: 0\.0\d*[1-9]/);
      await inBothThemes(page, 'jobs-parsed', 'section[aria-label="Past jobs"]');

      // The skill verified by hand kept its states; another one now shows the parsed ones.
      await go('#/library', '.skill-list');
      await expect.poll(() => page.getByTestId('library-stats').textContent()).toMatch(/ 1 verified/);
      await page.getByLabel('Search', { exact: true }).fill('');
      await page.locator('.skill-row button[data-skill-name="household-cool-object-fridge"]').click();
      await expect.poll(() => page.getByTestId('completion').textContent()).toBe('The skill is done.');
      expect(llm.chatRequests().length).toBeGreaterThanOrEqual(40);
    } finally {
      await llm.close();
    }
  });

  it('shows a name conflict from a second import and resolves it by keeping both', async () => {
    const { page } = session;
    const incoming = mkdtempSync(path.join(os.tmpdir(), 'curator-conflict-'));
    const skillDir = path.join(incoming, 'household-heat-object-microwave');
    cpSync(path.join(sampleLibrary, 'household-heat-object-microwave'), skillDir, { recursive: true });
    const file = path.join(skillDir, 'SKILL.md');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(
        /^description: .*$/m,
        'description: Warm food in a microwave oven, a changed copy.',
      ),
    );

    await go('#/library', '.skill-list');
    const skillsBefore = Number(
      /^(\d+) skills/.exec((await page.getByTestId('library-stats').textContent()) ?? '')?.[1],
    );
    await page.getByRole('button', { name: 'Import…' }).click();
    await page.getByLabel('Path to import').fill(incoming);
    await page.locator('section[aria-label="Import"] button[type="submit"]').click();
    await page.locator('.import-job[data-status="done"]').waitFor({ timeout: 60_000 });
    await expect.poll(() => page.locator('[data-count-of="conflicts"] strong').textContent()).toBe('1');
    const conflicts = page.locator('section[aria-label="Conflicts"]');
    await conflicts.waitFor();
    await inBothThemes(page, 'library-conflict', 'section[aria-label="Import"]');
    await conflicts.getByRole('button', { name: 'Keep both' }).click();
    await expect
      .poll(async () =>
        Number(/^(\d+) skills/.exec((await page.getByTestId('library-stats').textContent()) ?? '')?.[1]),
      )
      .toBe(skillsBefore + 1);
    rmSync(incoming, { recursive: true, force: true });
  });

  it('raised no page errors and no CSP violations', () => {
    const { problems } = session;
    const serious = problems.filter((p) => p.startsWith('pageerror') || /Content Security Policy/i.test(p));
    expect(serious).toEqual([]);
  });

  it('refuses inline script and remote loads by its Content-Security-Policy', async () => {
    const { page, problems } = session;
    const ran = await page.evaluate(async () => {
      const script = document.createElement('script');
      script.textContent = 'window.__injected = true';
      document.head.appendChild(script);
      const fetched = await fetch('https://example.invalid/x').then(
        () => true,
        () => false,
      );
      return { inline: (window as unknown as { __injected?: boolean }).__injected === true, fetched };
    });
    expect(ran).toEqual({ inline: false, fetched: false });
    expect(problems.some((p) => /Content Security Policy/i.test(p))).toBe(true);
  });
});
