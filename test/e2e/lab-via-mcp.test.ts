// The Selection lab tells a curator which runs an agent asked for over MCP: a "via MCP" badge in the recent runs and
// in the header of such a run (and "parse by the agent" when the agent wrote the task's parse), and none on a run made
// in the lab.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { createSelectService } from '../../src/core/api/select-service';
import { describeInChromium, useBrowserMode } from './browser-session';
import { inBothThemes } from './harness';
import { importSampleLibrary, importSampleStates, sampleTasks } from './prepare';

describeInChromium('runs asked for over MCP in the Selection lab', () => {
  let viaMcp: number;
  let inLab: number;
  const session = useBrowserMode({
    name: 'lab-via-mcp',
    timeoutMs: 30_000,
    setupTimeoutMs: 180_000,
    prepare: async ({ core }) => {
      await importSampleLibrary(core);
      await importSampleStates(core);
      const line = readFileSync(sampleTasks, 'utf8').split('\n')[0]!;
      const item = JSON.parse(line) as { task: string; parse: { subtasks: string[]; states: string[] } };
      const req = { task: item.task, parse: item.parse, preset: 'offline' as const };
      // The MCP server's own selection service, as `skill-curator mcp` makes it, with the agent's own parse.
      viaMcp = (
        await createSelectService(core.context, { via: 'mcp' })['select.run']({ ...req, parseBy: 'agent' })
      ).runId;
      inLab = (await core['select.run'](req)).runId;
    },
  });

  it('marks the MCP run in the recent runs and in its header, and not the lab run', async () => {
    const { server, page, problems } = session;
    await page.goto(server.pageUrl);
    await page.evaluate((id) => (window.location.hash = `#/select/${id}`), viaMcp);
    const headerBadge = page.locator('section[aria-label="Task"] > .row [data-testid="via-mcp"]');
    await headerBadge.waitFor();
    await page.locator('summary', { hasText: 'Recent runs' }).click();
    const runs = page.getByTestId('recent-runs');
    await expect.poll(() => runs.locator('li').count()).toBe(2);
    expect(await runs.locator(`li[data-run="${viaMcp}"] [data-testid="via-mcp"]`).count()).toBe(1);
    expect(await runs.locator(`li[data-run="${inLab}"] [data-testid="via-mcp"]`).count()).toBe(0);
    // The header of the MCP run says so: one badge outside the list.
    expect(await headerBadge.count()).toBe(1);
    // The agent wrote the parse, and the header says so.
    expect(await page.getByTestId('parse-by-agent').count()).toBe(1);
    await inBothThemes(page, 'lab-via-mcp', 'section[aria-label="Task"]');

    await runs.locator(`li[data-run="${inLab}"] a`).click();
    await expect.poll(() => page.evaluate(() => window.location.hash)).toBe(`#/select/${inLab}`);
    await page.locator('section[aria-label="Task"] textarea[name="task"]').waitFor();
    await expect.poll(() => page.locator('.lab').getAttribute('data-run')).toBe(String(inLab));
    expect(await headerBadge.count()).toBe(0);
    expect(await page.getByTestId('parse-by-agent').count()).toBe(0);
    expect(problems).toEqual([]);
  }, 120_000);
});
