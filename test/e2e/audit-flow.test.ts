// The audit in the app, in Debian's Chromium against the browser mode: a folder with one malicious skill (it deletes
// the home folder) and one benign skill the audit flags low is imported; the import report and the Library list show
// the flag; the skill page opens the finding's file at its line; a false positive is suppressed with a reason; the
// findings queue walks what is left; and installing a profile with the malicious skill is refused, by name and rule.
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeInChromium, useBrowserMode } from './browser-session';
import { inBothThemes } from './harness';

const corpus = path.resolve('test/fixtures/audit-corpus');
const malicious = 'cache-purger';
const maliciousRule = 'SC-DS-DELETE-HOME-OR-ROOT';
const benign = 'ssh-key-setup';
const benignRule = 'SC-EX-SECRET-READ';

describeInChromium('the audit, from import to a refused install', () => {
  let dir: string;
  const session = useBrowserMode({
    name: 'audit-flow',
    viewport: { width: 1280, height: 900 },
    timeoutMs: 30_000,
    setupTimeoutMs: 180_000,
    coreOptions: () => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'curator-e2e-audit-'));
      cpSync(path.join(corpus, 'malicious', malicious), path.join(dir, 'lib', malicious), {
        recursive: true,
      });
      cpSync(path.join(corpus, 'benign', benign), path.join(dir, 'lib', benign), { recursive: true });
      return { installPlaces: { home: path.join(dir, 'home'), projectDir: path.join(dir, 'project') } };
    },
    cleanup: () => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  });
  const row = (name: string) => session.page.locator(`.skill-row:has([data-skill-name="${name}"])`);

  it('flags the malicious skill in the import report and the Library list', async () => {
    const { server, page } = session;
    await page.goto(server.pageUrl);
    await page.getByLabel('Path to import').fill(path.join(dir, 'lib'));
    await page.locator('section[aria-label="Import"] button[type="submit"]').click();
    await page.locator('.import-job[data-status="done"]').waitFor({ timeout: 60_000 });
    const audit = page.getByTestId('import-audit');
    await expect.poll(() => audit.textContent()).toMatch(/2 skills audited; findings: 1 critical, .*1 low/);
    expect(await page.getByTestId('import-audit-flagged').locator('li').allTextContents()).toEqual([
      `${malicious} critical`,
    ]);
    await inBothThemes(page, 'audit-import-report', '[data-testid="import-audit"]');

    await expect.poll(() => row(malicious).locator('[data-audit]').textContent()).toBe('audit: critical');
    expect(await row(benign).locator('[data-audit]').textContent()).toBe('audit: low');
    await page.getByLabel('Audit').selectOption('critical');
    await expect.poll(() => page.locator('.skill-list').getAttribute('data-count')).toBe('1');
    expect(await page.locator('.skill-list [data-skill-name]').getAttribute('data-skill-name')).toBe(
      malicious,
    );
    await inBothThemes(page, 'audit-library-filter');
    await page.getByLabel('Audit').selectOption('');
    await expect.poll(() => page.locator('.skill-list').getAttribute('data-count')).toBe('2');
  });

  it('opens a finding at its line in the file, as plain text', async () => {
    const { page } = session;
    await page.getByTestId('import-audit-flagged').getByRole('link', { name: malicious }).click();
    await expect.poll(() => page.getByTestId('skill-name').textContent()).toBe(malicious);
    const finding = page.locator(`[data-testid="audit-finding"][data-rule="${maliciousRule}"]`);
    expect(await finding.locator('[data-severity]').textContent()).toBe('critical');
    await finding.locator('.finding-open').click();
    const file = page.getByTestId('file-text');
    await expect.poll(() => file.getAttribute('data-path')).toBe('scripts/purge.sh');
    const hit = file.locator('.line.hit');
    expect(await hit.getAttribute('data-line')).toBe('14');
    const excerpt = (await finding.getByTestId('finding-excerpt').textContent()) ?? '';
    expect(((await hit.textContent()) ?? '').trim()).toContain(excerpt.trim().slice(0, 20));
    // Scrolled into view inside the file's box.
    await expect
      .poll(() =>
        hit.evaluate((el) => {
          const box = el.closest('.audit-file-text')!.getBoundingClientRect();
          const r = el.getBoundingClientRect();
          return r.top >= box.top && r.bottom <= box.bottom && r.top >= 0 && r.bottom <= window.innerHeight;
        }),
      )
      .toBe(true);
    await inBothThemes(page, 'audit-skill-finding', '[data-testid="skill-audit"]');
  });

  it('suppresses a false positive with a reason, and the list counts it as suppressed', async () => {
    const { page } = session;
    await page.goto(`${session.server.host.url}/#/library`);
    await row(benign).locator('.row-button').click();
    await expect.poll(() => page.getByTestId('skill-name').textContent()).toBe(benign);
    const finding = page.locator(`[data-testid="audit-finding"][data-rule="${benignRule}"]`);
    await finding.getByRole('button', { name: 'Suppress…' }).click();
    const form = finding.getByRole('form', { name: 'Suppress finding' });
    expect(await form.getByRole('button', { name: 'Suppress' }).isDisabled()).toBe(true);
    await form.getByLabel(/Why is this not a problem/).fill('The skill explains how to read your own key');
    await form.getByLabel('This finding (until its file changes)').check();
    await form.getByRole('button', { name: 'Suppress' }).click();
    await expect.poll(() => finding.getAttribute('data-suppressed')).toBe('true');
    expect(await finding.getByTestId('suppressed-note').textContent()).toContain(
      'The skill explains how to read your own key',
    );
    expect(await page.getByTestId('audit-summary').textContent()).toMatch(/^1 finding, 1 suppressed/);
    await inBothThemes(page, 'audit-suppressed', '[data-testid="skill-audit"]');

    await page.getByRole('link', { name: '← Library' }).click();
    await expect.poll(() => row(benign).locator('[data-audit]').count()).toBe(0);
    await page.getByLabel('Audit').selectOption('clean');
    await expect.poll(() => page.locator('.skill-list').getAttribute('data-count')).toBe('1');
    await page.getByLabel('Audit').selectOption('');
  });

  it('walks the unsuppressed findings worst first in the findings queue', async () => {
    const { page } = session;
    await page.getByRole('link', { name: 'Audit', exact: true }).click();
    const current = page.getByTestId('queue-finding');
    await expect.poll(() => current.locator('[data-severity]').first().textContent()).toBe('critical');
    expect(await current.textContent()).toContain(malicious);
    // The malicious skill's critical and high findings; the suppressed one is not in the queue.
    await expect
      .poll(() => page.getByTestId('audit-queue-count').textContent())
      .toMatch(/^1 of 2 unsuppressed findings, worst first/);
    await expect.poll(() => current.locator('.line.hit').getAttribute('data-line')).toBe('14');
    await inBothThemes(page, 'audit-queue');
    await page.keyboard.press('j');
    await expect.poll(() => page.getByTestId('audit-queue-count').textContent()).toMatch(/^2 of/);
    // s suppresses the finding shown (with a reason); u undoes it and the finding is back in the queue.
    await page.keyboard.press('s');
    await page.getByLabel(/Why is this not a problem/).fill('tried from the queue');
    await page
      .getByRole('form', { name: 'Suppress finding' })
      .getByRole('button', { name: 'Suppress' })
      .click();
    await expect.poll(() => page.getByTestId('audit-queue-count').textContent()).toMatch(/^1 of 1 /);
    await page.locator('body').click({ position: { x: 5, y: 880 } });
    await page.keyboard.press('u');
    await expect.poll(() => page.getByTestId('audit-queue-count').textContent()).toMatch(/^2 of 2 /);
    expect(await current.locator('[data-severity]').first().textContent()).toBe('high');
    await page.keyboard.press('k');
    await expect.poll(() => page.getByTestId('audit-queue-count').textContent()).toMatch(/^1 of/);
    await page.keyboard.press('o');
    await expect
      .poll(() => page.evaluate(() => window.location.hash))
      .toMatch(/^#\/skill\/\d+\/finding\/\d+$/);
    await expect.poll(() => page.getByTestId('file-text').getAttribute('data-path')).toBe('scripts/purge.sh');

    await page.getByRole('link', { name: 'Audit', exact: true }).click();
    await page.getByRole('button', { name: 'Run audit' }).click();
    await expect.poll(() => page.getByTestId('audit-run-end').textContent()).toMatch(/^Audited 0 skills/);
  });

  it('refuses to install a profile with the malicious skill, naming it and its finding', async () => {
    const { server, page } = session;
    const ids = (await server.core['library.list']({})).items.map((s) => s.id);
    await server.core['profiles.create']({ name: 'flagged', skillIds: ids });
    await page.evaluate(() => (window.location.hash = '#/profiles/flagged'));
    await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe('flagged');
    await page.getByLabel('Target', { exact: true }).selectOption('folder');
    await page.getByLabel('Target folder').fill(path.join(dir, 'agent-skills'));
    await page.getByRole('button', { name: 'Install', exact: true }).click();
    const refusal = page.locator('section[aria-label="Install"] [role="alert"]');
    await expect.poll(() => refusal.textContent()).toContain('Not installed');
    const text = (await refusal.textContent()) ?? '';
    expect(text).toContain(malicious);
    expect(text).toContain(maliciousRule);
    expect(text).not.toContain(benign);
    await inBothThemes(page, 'audit-install-refused', 'section[aria-label="Install"]');
  });

  it('asks before verifying the flagged skill, naming its findings, and verifies on Verify anyway', async () => {
    const { server, page, problems } = session;
    const skillId = (await server.core['library.get']({ name: malicious })).id;
    await server.core['states.edit']({ skillId, precondition: null, completion: 'the caches are cleared' });
    await page.evaluate((id) => (window.location.hash = `#/skill/${id}`), skillId);
    await expect.poll(() => page.getByTestId('skill-name').textContent()).toBe(malicious);
    await page.locator('section[aria-label="Parsed states"]').getByRole('button', { name: 'Verify' }).click();
    const ask = page.getByTestId('verify-audit-confirm');
    await expect.poll(() => ask.textContent()).toContain(maliciousRule);
    expect(await ask.textContent()).toContain(`${malicious}`);
    await inBothThemes(page, 'audit-verify-asks', '[data-testid="verify-audit-confirm"]');
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => ask.count()).toBe(0);
    expect((await server.core['states.get']({ skillId })).status).toBe('edited');
    await page.locator('section[aria-label="Parsed states"]').getByRole('button', { name: 'Verify' }).click();
    await ask.getByRole('button', { name: 'Verify anyway' }).click();
    await expect.poll(async () => (await server.core['states.get']({ skillId })).status).toBe('verified');
    // The refusals are 409 answers, which Chromium logs as failed resources.
    expect(problems.filter((p) => !p.includes('409') && !p.includes('Failed to load resource'))).toEqual([]);
  });

  it('says a suppression must be reviewed again once the skill changed', async () => {
    const { server, page } = session;
    appendFileSync(path.join(dir, 'lib', benign, 'SKILL.md'), '\nOne more line, added since.\n');
    const job = await server.core['library.import']({ path: path.join(dir, 'lib') });
    expect((await server.core['jobs.wait']({ id: job.id })).status).toBe('done');
    const skillId = (await server.core['library.get']({ name: benign })).id;
    await page.evaluate((id) => (window.location.hash = `#/skill/${id}`), skillId);
    const finding = page.locator(`[data-testid="audit-finding"][data-rule="${benignRule}"]`);
    await expect
      .poll(() => finding.getByTestId('review-suppression').textContent())
      .toContain('The skill explains how to read your own key');
    expect(await finding.getAttribute('data-suppressed')).toBe('false');
    expect(await page.getByTestId('audit-summary').textContent()).toMatch(/1 to review again/);
    await inBothThemes(page, 'audit-review-again', '[data-testid="skill-audit"]');
    await finding.getByRole('button', { name: 'Suppress again…' }).click();
    expect(await finding.getByLabel(/Why is this not a problem/).inputValue()).toBe(
      'The skill explains how to read your own key',
    );
    await finding.getByRole('button', { name: 'Suppress', exact: true }).click();
    await expect.poll(() => finding.getAttribute('data-suppressed')).toBe('true');
  });

  it('asks before a bulk verify that takes in the flagged skill', async () => {
    const { server, page } = session;
    const skillId = (await server.core['library.get']({ name: malicious })).id;
    await server.core['states.edit']({ skillId, precondition: null, completion: 'the caches are purged' });
    await page.goto(`${server.host.url}/#/library`);
    await row(malicious).locator('.row-check').click();
    await page.getByRole('button', { name: 'Verify…' }).click();
    await page.getByRole('button', { name: 'Verify 1 skill' }).click();
    const ask = page.getByTestId('verify-audit-confirm');
    await expect.poll(() => ask.textContent()).toContain(maliciousRule);
    await ask.getByRole('button', { name: 'Verify anyway' }).click();
    await expect.poll(async () => (await server.core['states.get']({ skillId })).status).toBe('verified');
  });
});
