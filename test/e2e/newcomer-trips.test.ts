// What a newcomer tripped over on a real-sized library, in Debian's Chromium against the browser mode: a long source
// name squeezed the search field; "Dense" silently ranked lexically without a model; skills refused only for a name
// that differs from their folder gave no way out but "fix these files"; an unparsed skill showed its precondition as
// "None" (needs nothing); "Parse N unparsed" still offered a second parse while one ran; and the app said no word
// of MCP, the way to hand a profile to an agent; the Library counted "1 open conflicts", and the lab's k and K fields
// said nothing of what they are; a narrow window broke "Selection lab" over two lines; the lab's "dense" answer did
// not say it was ranked by words when no embedding model is set up.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect, it } from 'vitest';
import type { OpenAiServer } from '../fixtures/openai-server';
import { describeInChromium, useBrowserMode } from './browser-session';
import { repoRoot } from './harness';
import { connectLoopbackLlm, sampleLibrary, skillNameAsked } from './prepare';

const longSource = 'skills-from-a-colleague-with-a-rather-long-folder-name';

describeInChromium('newcomer trips', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'curator-newcomer-'));
  let llm: OpenAiServer | undefined;
  let wrongName = '';
  const session = useBrowserMode({
    name: 'newcomer',
    prepare: async ({ core }) => {
      // One skill in a folder with a long name, one skill folder imported as itself (its path in the source is '').
      cpSync(
        path.join(sampleLibrary, 'household-locate-object'),
        path.join(dir, longSource, 'household-locate-object'),
        {
          recursive: true,
        },
      );
      cpSync(path.join(sampleLibrary, 'household-make-coffee'), path.join(dir, 'household-make-coffee'), {
        recursive: true,
      });
      // A package whose "name" is not its folder's, as in many libraries one does not own.
      wrongName = path.join(dir, 'borrowed', 'tidy-desk');
      mkdirSync(wrongName, { recursive: true });
      writeFileSync(
        path.join(wrongName, 'SKILL.md'),
        '---\nname: desk-tidier\ndescription: Tidy a desk. Use when the desk is cluttered.\n---\n# Tidy\n',
      );
      mkdirSync(path.join(dir, 'borrowed', 'Desk Tidier'));
      writeFileSync(
        path.join(dir, 'borrowed', 'Desk Tidier', 'SKILL.md'),
        '---\nname: Desk Tidier\ndescription: Tidy a desk. Use when the desk is cluttered.\n---\n# Tidy\n',
      );
      for (const source of [path.join(dir, longSource), path.join(dir, 'household-make-coffee')]) {
        const job = await core['library.import']({ path: source });
        expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
      }
      llm = await connectLoopbackLlm(core, {
        reply: (req) => ({
          content: `Precondition_State: None\nCompletion_State: The ${skillNameAsked(req)} result exists.`,
          delayMs: 2500,
        }),
      });
    },
    open: '#/library',
    ready: '.skill-list',
    cleanup: async () => {
      await llm?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  });

  it('keeps the search field usable beside a source with a long name', async () => {
    const { page } = session;
    const source = page.getByLabel('Source');
    await expect.poll(() => source.locator('option').allTextContents()).toContain(`${longSource} (1)`);
    const search = page.getByRole('searchbox', { name: 'Search' });
    expect((await search.boundingBox())!.width).toBeGreaterThanOrEqual(300);
    expect((await source.boundingBox())!.width).toBeLessThanOrEqual(240);
  });

  it('says when Dense search ran without an embedding model, and where to add one', async () => {
    const { page } = session;
    await page.getByLabel('Search mode').selectOption('dense');
    await page.getByRole('searchbox', { name: 'Search' }).fill('find the mug');
    const note = page.getByTestId('search-engine-note');
    await expect.poll(() => note.textContent()).toContain('needs an embedding model and none is set up');
    expect(await note.getByRole('link').getAttribute('href')).toBe('#/settings');
    await page.getByLabel('Search mode').selectOption('keyword');
    await expect.poll(() => note.count()).toBe(0);
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
  });

  it('offers the settings that import skills refused only for their name (folder, capitals)', async () => {
    const { page } = session;
    await page.getByRole('button', { name: 'Import…' }).click();
    await page
      .getByPlaceholder('/path/to/skills (folder, .zip, SKILL.md or .jsonl)')
      .fill(path.dirname(wrongName));
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const hint = page.getByTestId('name-folder-hint');
    await expect
      .poll(() => hint.textContent(), { timeout: 20_000 })
      .toContain('Name differs from its folder');
    expect(await hint.textContent()).toContain(
      'All were refused only because of their “name” (1 differs from its folder, 1 has capitals, spaces',
    );
    expect(await hint.textContent()).toContain('Name breaks the spec’s format');
    expect(await hint.getByRole('link').first().getAttribute('href')).toBe('#/settings/import');
    // The link lands on the Import limits group, not on the top of Settings.
    await hint.getByRole('link').first().click();
    const limits = page.getByRole('region', { name: 'Import limits' });
    await limits.waitFor();
    await expect.poll(() => limits.evaluate((el) => el.getBoundingClientRect().top)).toBeLessThan(200);
    await page.goBack();
    await page.locator('.skill-list').waitFor();
  });

  it('shows an unparsed skill with no states, not with a precondition of None', async () => {
    const { server, page } = session;
    const skill = await server.core['library.get']({ name: 'household-make-coffee' });
    expect(skill.relPath).toBe('');
    await page.evaluate((id) => (window.location.hash = `#/skill/${id}`), skill.id);
    await expect.poll(() => page.getByTestId('completion').textContent()).toBe('not parsed yet');
    expect(await page.getByTestId('precondition').textContent()).toBe('not parsed yet');
    // The keys say what the buttons say, and a skill at its source's root has no dangling "·".
    expect(await page.locator('.skill-head .keys').textContent()).toContain('a verify');
    expect(await page.locator('.skill-head').textContent()).not.toMatch(/household-make-coffee\s*·\s*j next/);
  });

  it('shows a parse started elsewhere in place of "Parse N unparsed", linked to Jobs', async () => {
    const { server, page } = session;
    await page.evaluate(() => (window.location.hash = '#/library'));
    await expect.poll(() => page.getByTestId('parse-unparsed').textContent()).toBe('Parse 2 unparsed');
    const job = await server.core['parse.skills']({ only: 'unparsed' });
    const running = page.getByTestId('parse-running');
    await expect.poll(() => running.textContent()).toMatch(/^Parsing( \d \/ 2)?…$/);
    expect(await running.getAttribute('href')).toBe('#/jobs');
    expect(await page.getByTestId('parse-unparsed').count()).toBe(0);
    expect((await server.core['jobs.wait']({ id: job.id })).status).toBe('done');
    await expect.poll(() => running.count()).toBe(0);
    expect(session.problems).toEqual([]);
  });

  it('gives the MCP command for a profile, and the command it shows serves that profile', async () => {
    const { server, page } = session;
    await server.core['profiles.create']({ name: 'kitchen', filter: { nameContains: 'household' } });
    await page.evaluate(() => (window.location.hash = '#/profiles/kitchen'));
    const stdio = page.getByTestId('mcp-stdio');
    await expect.poll(() => stdio.textContent()).toContain('--profile kitchen');
    const shown = (await stdio.textContent())!.trim().split(' ');
    expect(shown.slice(0, 3)).toEqual(['skill-curator', '--data', server.dataDir]);
    expect(await page.getByTestId('mcp-claude').textContent()).toBe(
      `claude mcp add skill-curator-kitchen -- ${shown.join(' ')}`,
    );
    expect(await page.getByTestId('mcp-codex').textContent()).toContain(
      `args = [${shown
        .slice(1)
        .map((a) => JSON.stringify(a))
        .join(', ')}]`,
    );

    // Run what the panel shows (the CLI from this checkout for `skill-curator`) and ask it as an agent would.
    const client = new Client({ name: 'newcomer-mcp', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', path.join(repoRoot, 'src/cli/main.ts'), ...shown.slice(1)],
        cwd: repoRoot,
        stderr: 'pipe',
      }),
    );
    try {
      const found = await client.callTool({ name: 'search_skills', arguments: { query: 'find the object' } });
      const text = (found.content as { text: string }[])[0]!.text;
      expect(text).toContain('household-locate-object');
    } finally {
      await client.close();
    }
  });

  it('keeps Tab inside the command palette, and Escape closes it', async () => {
    const { page } = session;
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Command');
    await page.keyboard.press('Escape');
    await expect.poll(() => palette.count()).toBe(0);
  });

  it('takes a new token pasted into an open tab (a restarted server), instead of staying unauthorized', async () => {
    const { server, browser } = session;
    const tab = await browser.newPage();
    try {
      await tab.goto(server.pageUrl.replace(/#token=.*/, '#token=from-the-last-run'));
      await tab.getByText('Missing or wrong token').first().waitFor();
      // Only the part after '#' differs: the browser changes the hash and loads nothing.
      await tab.goto(server.pageUrl);
      await expect.poll(() => tab.getByTestId('library-stats').count(), { timeout: 20_000 }).toBe(1);
      expect(await tab.getByText('Missing or wrong token').count()).toBe(0);
      expect(tab.url()).not.toContain('token=');
    } finally {
      await tab.close();
    }
  });

  it('counts one open conflict in the singular, and says what k and K are in the lab', async () => {
    const { server, page } = session;
    const changed = path.join(dir, 'changed', 'household-make-coffee');
    cpSync(path.join(sampleLibrary, 'household-make-coffee'), changed, { recursive: true });
    writeFileSync(path.join(changed, 'SKILL.md'), '\nOne more line.\n', { flag: 'a' });
    const job = await server.core['library.import']({ path: path.dirname(changed) });
    expect((await server.core['jobs.wait']({ id: job.id })).status).toBe('done');
    await page.evaluate(() => (window.location.hash = '#/library'));
    const stats = page.getByTestId('library-stats');
    await expect.poll(() => stats.textContent()).toContain('· 1 open conflict');
    expect(await stats.textContent()).not.toContain('open conflicts');

    await page.evaluate(() => (window.location.hash = '#/select'));
    const k = page.getByLabel('k', { exact: true }).locator('xpath=..');
    await expect.poll(() => k.getAttribute('title')).toContain('How many skills the ranked variants');
    expect(await page.getByLabel('Recall K').locator('xpath=..').getAttribute('title')).toContain(
      'How many candidates the recall passes on',
    );
  });

  it('keeps each screen name and the theme button on one line in a narrow window', async () => {
    const { page } = session;
    const themeHeight = async () => (await page.getByTestId('theme').boundingBox())!.height;
    const wide = await themeHeight();
    await page.setViewportSize({ width: 860, height: 760 });
    try {
      const height = async (name: string) =>
        (await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name }).boundingBox())!
          .height;
      await expect.poll(() => height('Selection lab')).toBe(await height('Jobs'));
      expect(await themeHeight()).toBe(wide);
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  });

  it('says a dense answer was ranked by shared words when no embedding model is set up', async () => {
    const { page } = session;
    await page.evaluate(() => (window.location.hash = '#/select'));
    await page.getByPlaceholder(/Describe what the agent must do/).fill('find the mug on the table');
    // The ranked variants alone: this suite's loopback LLM answers skill parses only, and they need no task parse.
    for (const v of ['full', 'no-split']) await page.locator(`input[name="variant-${v}"]`).uncheck();
    await page.getByRole('button', { name: 'Select skills' }).click();
    const dense = page.getByTestId('variant-answers').locator('[data-variant="dense"]');
    await expect
      .poll(() => dense.getByTestId('dense-lexical').textContent(), { timeout: 30_000 })
      .toBe('ranked by shared words: no embedding model is set up');
    expect(await page.getByTestId('variant-answers').getByTestId('dense-lexical').count()).toBe(1);
  });

  it('lists the first 100 lines of a long report, counts them all, and says where the rest are', async () => {
    const { page } = session;
    await page.evaluate(() => (window.location.hash = '#/library'));
    await page.locator('.skill-list').first().waitFor();
    const dump = path.join(dir, 'many-refused.jsonl');
    const lines = Array.from({ length: 130 }, (_, i) =>
      JSON.stringify({ name: `Refused Skill ${i}`, description: 'A name with spaces.', body: 'Steps.' }),
    );
    lines.push(
      JSON.stringify({ name: 'kept-skill', description: 'Kept. Use when testing.', body: 'Steps.' }),
    );
    writeFileSync(dump, lines.join('\n') + '\n');
    await page.getByRole('button', { name: 'Import…' }).click();
    await page.getByPlaceholder('/path/to/skills (folder, .zip, SKILL.md or .jsonl)').fill(dump);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const report = page.getByLabel('Import report');
    await expect.poll(() => report.getByText('Rejected (130)').count(), { timeout: 20_000 }).toBe(1);
    expect(await report.locator('[data-count-of="rejected"] strong').textContent()).toBe('130');
    // Said as the Jobs screen says it, not a bare "done".
    expect(await page.locator('.import-job strong').textContent()).toBe('Import done with failures');
    // The command names this library, so it reads the report the screen shows (once the host said where it is).
    const { dataDir } = await session.server.core['settings.paths']({});
    await expect
      .poll(() => report.getByTestId('not-listed-rejected').textContent())
      .toMatch(
        new RegExp(
          `^The first 100 of 130 are listed here; skill-curator --data ${dataDir} import-report \\d+ lists them all\\.$`,
        ),
      );
    await page.getByRole('button', { name: 'Import…' }).click();
  });
});
