// Profiles in Chromium: make a profile from a Selection lab answer, preview what an agent sees of it against a small
// budget, write Claude Code skillOverrides for the entries cut (keeping the settings already there), install it into
// a temporary folder (copy, with the lock file), and uninstall it again.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeInChromium, useBrowserMode } from './browser-session';
import { inBothThemes } from './harness';
import { importSampleLibrary } from './prepare';

describeInChromium('profiles and installs in the app', () => {
  let dir: string;
  let runId: number;
  let answer: string[];
  const session = useBrowserMode({
    name: 'profiles',
    viewport: { width: 1280, height: 900 },
    timeoutMs: 30_000,
    setupTimeoutMs: 180_000,
    coreOptions: () => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'curator-e2e-install-'));
      return { installPlaces: { home: path.join(dir, 'home'), projectDir: path.join(dir, 'project') } };
    },
    prepare: async ({ core }) => {
      await importSampleLibrary(core);
      const run = await core['select.run']({
        task: 'put a hot mug in the coffee machine',
        variant: 'no-parse',
        k: 3,
        preset: 'offline',
      });
      runId = run.runId;
      answer = run.answer.map((a) => a.name);
      expect(answer).toHaveLength(3);
    },
    cleanup: () => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  });

  it('makes a profile from a selection, previews its budget, installs it into a folder and uninstalls it', async () => {
    const { server, page, problems } = session;
    await page.goto(server.pageUrl);
    await page.evaluate((id) => (window.location.hash = `#/select/${id}`), runId);
    await page.getByTestId('answer').waitFor();
    await inBothThemes(page, 'profiles-make-from-selection', '[data-testid="answer"]');
    await page.getByRole('button', { name: 'Make profile from this selection' }).click();
    await page.getByLabel('Profile name').fill('mug-task');
    await page.getByRole('button', { name: 'Create profile' }).click();

    // The Profiles screen opens on the new profile, holding the answer's skills.
    await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe('mug-task');
    const rows = page.locator('table[aria-label="Profile skills"] tbody tr');
    await expect.poll(() => rows.count()).toBe(3);
    const shown = (await rows.locator('td:first-child').allTextContents()).sort();
    expect(shown).toEqual([...answer].sort());
    expect(await page.locator('section[aria-label="Profile"]').textContent()).toContain(
      `from selection run #${runId}`,
    );

    // Budget: at the default budget everything fits; at 300 characters the last entries lose their descriptions.
    const summary = page.getByTestId('budget-summary');
    await expect.poll(() => summary.textContent()).toMatch(/of 8,000 characters used.* 0 of 3 entries cut/);
    await page.getByLabel('Budget characters').fill('300');
    await expect
      .poll(() => summary.textContent())
      .toMatch(/of 300 characters used — the full listing needs .*of 3 entries cut or dropped/);
    const cut = await page.locator('table[aria-label="Cut entries"] tbody tr').count();
    expect(cut).toBeGreaterThan(0);
    const listing = (await page.getByTestId('budget-text').textContent()) ?? '';
    expect(listing.startsWith('<available_skills>')).toBe(true);
    expect(listing).toContain('<location>');
    await page.getByText('The listing the agent gets').click();

    // skillOverrides: proposed for the cut entries, previewed as a diff of the project settings, then written.
    const settingsFile = path.join(dir, 'project', '.claude', 'settings.json');
    mkdirSync(path.dirname(settingsFile), { recursive: true });
    const before = { model: 'opus', skillOverrides: { 'hand-set-skill': 'off' } };
    writeFileSync(settingsFile, JSON.stringify(before, null, 2) + '\n');
    await page.getByLabel('Settings file').selectOption('local');
    await page.getByLabel('Settings file').selectOption('project');
    const proposed = page.locator('ul[aria-label="Proposed overrides"] > li');
    await expect.poll(() => proposed.count()).toBe(cut);
    const diff = page.getByTestId('overrides-diff');
    await expect.poll(() => diff.textContent()).toContain(`--- ${settingsFile}`);
    const first = (await proposed.first().locator('.override-skill').textContent()) ?? '';
    await page.getByLabel(`Override for ${first}`).selectOption('off');
    await expect.poll(() => diff.textContent()).toContain(`+    "${first}": "off"`);
    await inBothThemes(page, 'profiles-budget', 'section[aria-label="Context budget"]');
    await inBothThemes(page, 'profiles-skill-overrides', 'section[aria-label="Skill overrides"]');
    expect(JSON.parse(readFileSync(settingsFile, 'utf8'))).toEqual(before);
    await page.getByRole('button', { name: 'Write overrides' }).click();
    await expect
      .poll(() => page.getByTestId('overrides-written').textContent())
      .toBe(`Wrote ${settingsFile}`);
    const after = JSON.parse(readFileSync(settingsFile, 'utf8')) as {
      model: string;
      skillOverrides: Record<string, string>;
    };
    expect(after.model).toBe('opus');
    expect(after.skillOverrides['hand-set-skill']).toBe('off');
    expect(after.skillOverrides[first]).toBe('off');
    expect(Object.keys(after.skillOverrides)).toHaveLength(cut + 1);
    await expect.poll(() => diff.textContent()).toBe('The settings file already says this.');

    // Install into a temporary folder that already holds a skill of its own.
    const target = path.join(dir, 'agent-skills');
    mkdirSync(path.join(target, 'my-own-skill'), { recursive: true });
    writeFileSync(path.join(target, 'my-own-skill', 'SKILL.md'), 'mine');
    await page.getByLabel('Target', { exact: true }).selectOption('folder');
    await page.getByLabel('Target folder').fill(target);
    await page.getByLabel('copy').check();
    await page.getByRole('button', { name: 'Preview changes' }).click();
    await expect.poll(() => page.getByTestId('install-summary').textContent()).toMatch(/^Would change/);
    expect(readdirSync(target)).toEqual(['my-own-skill']);
    await page.getByRole('button', { name: 'Install', exact: true }).click();
    await expect.poll(() => page.getByTestId('install-summary').textContent()).toMatch(/^Installed into/);
    const lock = JSON.parse(readFileSync(path.join(target, '.skill-curator-lock.json'), 'utf8')) as {
      entries: Record<string, { skill: string; mode: string; set: string }>;
    };
    expect(
      Object.values(lock.entries)
        .map((e) => e.skill)
        .sort(),
    ).toEqual([...answer].sort());
    expect(Object.values(lock.entries).every((e) => e.mode === 'copy' && e.set === 'profile:mug-task')).toBe(
      true,
    );
    for (const name of answer) expect(existsSync(path.join(target, name, 'SKILL.md'))).toBe(true);
    await page.getByRole('button', { name: 'Verify' }).click();
    const verified = page.getByTestId('verify-summary');
    await expect.poll(() => verified.textContent()).toMatch(/^Clean: 3 skill\(s\) as the lock says\./);
    expect(await verified.textContent()).toContain('Not installed by Skill Curator: my-own-skill');
    const edited = path.join(target, answer[0]!, 'SKILL.md');
    const original = readFileSync(edited);
    writeFileSync(edited, 'edited by hand');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect
      .poll(() => verified.textContent())
      .toContain(`Drift in 1 of 3 skill(s).${answer[0]}: changed SKILL.md`);
    writeFileSync(edited, original);
    await inBothThemes(page, 'profiles-install', 'section[aria-label="Install"]');

    await page.getByRole('button', { name: 'Uninstall' }).click();
    await expect.poll(() => page.getByTestId('uninstall-summary').textContent()).toMatch(/^Removed from/);
    expect(readdirSync(target)).toEqual(['my-own-skill']);
    expect(readFileSync(path.join(target, 'my-own-skill', 'SKILL.md'), 'utf8')).toBe('mine');
    expect(problems).toEqual([]);
  }, 120_000);
});
