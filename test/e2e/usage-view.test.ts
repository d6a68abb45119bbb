// The Usage screen in Debian's Chromium (issue 24, "Usage the curator can see"): after an agent's MCP calls under a
// served profile (real MCP client and server over the SDK's in-memory transport), the screen shows the counts per
// skill, the profile's never-used skills, the calls behind a figure, and opens the selection in the lab.
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { expect, it } from 'vitest';
import type { Core } from '../../src/core';
import { createMcpContext } from '../../src/mcp/mcp-context';
import { libraryProfiles } from '../../src/mcp/profile-source';
import { createCuratorMcpServer } from '../../src/mcp/server';
import { describeInChromium, useBrowserMode } from './browser-session';
import { inBothThemes } from './harness';
import { importSampleLibrary, importSampleStates, sampleTasks } from './prepare';

const kitchen = ['household-heat-object-microwave', 'household-make-coffee', 'household-cool-object-fridge'];

async function agentCalls(core: Core): Promise<{ runId: number; picked: string[] }> {
  const ids = await Promise.all(kitchen.map(async (name) => (await core['library.get']({ name })).id));
  await core['profiles.create']({ name: 'kitchen', skillIds: ids });
  const mcp = await createMcpContext({
    core,
    rule: { kind: 'profile', name: 'kitchen' },
    profiles: libraryProfiles(core.context),
    preset: 'offline',
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createCuratorMcpServer(mcp).connect(serverSide);
  const client = new Client({ name: 'e2e-agent', version: '1.0' });
  await client.connect(clientSide);
  const item = JSON.parse(readFileSync(sampleTasks, 'utf8').split('\n')[0]!) as {
    task: string;
    parse: { subtasks: string[]; states: string[] };
  };
  const result = (await client.callTool({
    name: 'select_skills',
    arguments: { task: item.task, ...item.parse },
  })) as { content: { text: string }[] };
  const answer = JSON.parse(result.content[0]!.text) as { runId: number; answer: { name: string }[] };
  const picked = answer.answer.map((a) => a.name);
  await client.callTool({ name: 'read_skill', arguments: { name: picked[0] } });
  await client.close();
  return { runId: answer.runId, picked };
}

describeInChromium('the Usage screen', () => {
  let runId: number;
  let picked: string[];
  const session = useBrowserMode({
    name: 'usage-view',
    timeoutMs: 30_000,
    setupTimeoutMs: 180_000,
    viewport: { width: 1280, height: 900 },
    prepare: async ({ core }) => {
      await importSampleLibrary(core);
      await importSampleStates(core);
      ({ runId, picked } = await agentCalls(core));
    },
  });

  it('shows the counts and a never-used skill, and opens a selection in the lab', async () => {
    const { server, page, problems } = session;
    expect(picked).toEqual(
      expect.arrayContaining(['household-heat-object-microwave', 'household-make-coffee']),
    );
    const unused = kitchen.filter((n) => !picked.includes(n));
    expect(unused).toEqual(['household-cool-object-fridge']);

    await page.goto(server.pageUrl);
    await page.getByRole('link', { name: 'Usage' }).click();
    await expect.poll(() => page.evaluate(() => window.location.hash)).toBe('#/usage');
    await expect
      .poll(() => page.getByTestId('usage-totals').textContent())
      .toMatch(/2 calls: .*select_skills 1.*Clients: e2e-agent 1\.0 \(2\)/);
    const row = (name: string) => page.getByTestId('usage-skills').locator(`tr[data-skill="${name}"]`);
    expect(await row(picked[0]!).locator('td[data-role="selected"]').textContent()).toBe('1');
    expect(await row(picked[0]!).locator('td[data-role="read"]').textContent()).toBe('1');
    expect(await row(picked[1]!).locator('td[data-role="read"]').textContent()).toBe('0');
    const never = page.getByTestId('never-used');
    expect(await never.locator('li').allTextContents()).toEqual(unused);
    expect(await page.locator('section[aria-label="Never used in kitchen"] h2').textContent()).toBe(
      'Never selected or read under profile "kitchen": 1 of 3',
    );
    await inBothThemes(page, 'usage-view');

    // The figure opens the calls behind it; the selection opens in the lab.
    await row(picked[0]!).locator('td[data-role="selected"] button').click();
    const calls = page.getByTestId('usage-calls');
    await calls.waitFor();
    expect(await calls.locator('tbody tr').count()).toBe(1);
    expect(await calls.locator('tbody tr td').nth(3).textContent()).toBe('profile "kitchen"');
    await calls.locator(`a[data-run="${runId}"]`).click();
    await expect.poll(() => page.evaluate(() => window.location.hash)).toBe(`#/select/${runId}`);
    await expect.poll(() => page.locator('.lab').getAttribute('data-run')).toBe(String(runId));
    expect(await page.getByTestId('via-mcp').count()).toBeGreaterThan(0);

    // A period with no calls says how agents get here.
    await page.evaluate(() => (window.location.hash = '#/usage'));
    await page.getByLabel('Period').selectOption('custom');
    await page.getByLabel('to', { exact: true }).fill('2020-01-31');
    await expect.poll(() => page.locator('.usage').textContent()).toMatch(/No agent called this library/);
    expect(problems).toEqual([]);
  }, 120_000);
});
