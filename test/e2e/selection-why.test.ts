// The Selection lab explains its answer (issue 11, "Make the 'why' readable"), in Chromium on the sample library with
// the offline engine: a labelled two-stage task's sentences name the stages and runners-up the trace holds, edge labels
// never overlap (measured from the SVG), stage headers fit their stage, highlighted edges agree with the stage tables,
// gold marks show, and a what-if on one stage fit flips that stage's winner and the sentence.
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { SelectionResult } from '../../src/shared/api';
import { describeInChromium, useBrowserMode } from './browser-session';
import { inBothThemes, type BrowserModeServer } from './harness';
import { importSampleLibrary, importSampleStates, importSampleTasks } from './prepare';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
  text: string;
}
const overlaps = (a: Box, b: Box): boolean =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function labelBoxes(page: Page): Promise<Box[]> {
  return page.locator('[data-testid="graph-edge-label"]').evaluateAll((els) =>
    els.map((el) => {
      const b = (el as SVGTextElement).getBBox();
      return { x: b.x, y: b.y, width: b.width, height: b.height, text: el.textContent ?? '' };
    }),
  );
}

async function runSample(page: Page, id: string): Promise<void> {
  await page.getByLabel('Sample task').selectOption(id);
  await page.getByLabel('Scoring preset').selectOption('offline');
  await page.getByRole('button', { name: 'Select skills' }).click();
  await page.getByTestId('why-pick').first().waitFor({ timeout: 90_000 });
}

async function latestFull(server: BrowserModeServer): Promise<SelectionResult> {
  const runs = await server.core['select.runs']({ limit: 10 });
  return server.core['select.get']({ runId: runs.find((r) => r.variant === 'full')!.runId });
}

describeInChromium('the why of a selection in the lab', () => {
  const session = useBrowserMode({
    name: 'why',
    viewport: { width: 1600, height: 1000 },
    timeoutMs: 30_000,
    setupTimeoutMs: 180_000,
    prepare: async ({ core }) => {
      await importSampleLibrary(core);
      await importSampleStates(core, { verify: true });
      await importSampleTasks(core);
    },
    open: '#/select',
    ready: 'section[aria-label="Task"]',
  });

  it('names the stages and runners-up, keeps labels apart, marks gold, and a stage-fit what-if flips a stage', async () => {
    const { server, page, problems } = session;
    await runSample(page, 'dv-07');
    const api = await latestFull(server);
    const trace = api.trace;
    expect(trace.stages.length).toBe(2);
    expect(api.answer.map((a) => a.name)).toEqual(['dev-write-unit-tests', 'dev-setup-ci-github-actions']);

    // One sentence per pick, naming the stage it won and the stage's runner-up by φ, as the trace has them.
    const sentences = await page.getByTestId('why-pick').allTextContents();
    expect(sentences).toHaveLength(2);
    for (const stage of trace.stages) {
      const winner = trace.candidates[stage.winner!]!.name;
      const second = stage.phi
        .filter((e) => e.candidate !== stage.winner && e.phi !== null)
        .sort((a, b) => b.phi! - a.phi!)[0]!;
      const sentence = sentences.find((s) => s.includes(`${winner}:`))!;
      expect(sentence).toContain(`won stage ${stage.index + 1} (s${stage.from} → s${stage.to})`);
      expect(sentence).toContain(`beating ${trace.candidates[second.candidate]!.name} by`);
      expect(sentence).toMatch(/^gold /);
    }

    // Gold marks in the candidates, the graph and the answers; the offline banner says what models would add.
    for (const name of ['dev-write-unit-tests', 'dev-setup-ci-github-actions']) {
      await expect
        .poll(() => page.locator(`tr[data-skill="${name}"] .badge.gold`).first().count())
        .toBeGreaterThan(0);
      expect(await page.locator(`[data-testid="graph-edge"][data-skill="${name}"].gold`).count()).toBe(1);
    }
    expect(await page.locator('.variant-card[data-variant="full"] li[data-gold="true"]').count()).toBe(2);
    expect(await page.getByTestId('offline-banner').textContent()).toMatch(/offline \(lexical\).*embedder/);

    // Highlighted edges are the stage tables' winners.
    const tableWinners = await page
      .locator('[data-testid="stage-table"] tr.winner')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-skill')));
    const graphWinners = await page
      .locator('[data-testid="graph-edge"].winner')
      .evaluateAll((gs) => gs.map((g) => g.getAttribute('data-skill')));
    expect(new Set(graphWinners)).toEqual(new Set(tableWinners));
    expect(tableWinners).toEqual(trace.stages.map((s) => trace.candidates[s.winner!]!.name));

    // Several edges share a span here; the labels of the labelled ones never overlap.
    const spans = trace.candidates.filter((c) => c.src === 0 && c.tgt === 1).length;
    expect(spans).toBeGreaterThan(3);
    const boxes = await labelBoxes(page);
    expect(boxes.length).toBeGreaterThanOrEqual(3);
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++)
        expect(overlaps(boxes[i]!, boxes[j]!), `${boxes[i]!.text} / ${boxes[j]!.text}`).toBe(false);
    // Stage headers fit inside their stage.
    const headers = await page.locator('[data-testid="graph-stage"]').evaluateAll((gs) =>
      gs.map((g) => {
        const rect = g.querySelector('rect')!.getBBox();
        return [...g.querySelectorAll('text')].map((t) => {
          const b = (t as SVGTextElement).getBBox();
          return b.x >= rect.x && b.x + b.width <= rect.x + rect.width;
        });
      }),
    );
    expect(headers.flat().every(Boolean)).toBe(true);

    await inBothThemes(page, 'lab-why-1600x1000', 'section[aria-label="Execution graph"]');
    await page.setViewportSize({ width: 1000, height: 700 });
    await inBothThemes(page, 'lab-why-1000x700', 'section[aria-label="Execution graph"]');
    await page.setViewportSize({ width: 1600, height: 1000 });
    await page.emulateMedia({ colorScheme: 'light' });

    // What-if: set a challenger's fit to the fit the why says it needs to win its stage; the stage flips.
    const target = api.why!.stages.find((s) => s.challengers.some((c) => c.fitNeeded !== null))!;
    expect(target).toBeDefined();
    const challenger = target.challengers.find((c) => c.fitNeeded !== null)!;
    const j = target.stage;
    const oldSentence = sentences.find((s) => s.includes(`${challenger.name}:`)) ?? null;
    const fit = Math.ceil((challenger.fitNeeded! + 0.05) * 100) / 100;
    const stage2 = page.locator(`[data-testid="stage-table"][data-stage="${j}"]`);
    await stage2.locator(`tr[data-skill="${challenger.name}"] button.link`).click();
    const input = page.getByLabel(`Stage ${j + 1} fit of ${challenger.name}`);
    await input.fill(String(fit));
    await input.press('Enter');
    await page.locator('section[aria-label="Execution graph"] .badge.status-edited').waitFor();
    await expect.poll(() => stage2.locator('tr.winner').getAttribute('data-skill')).toBe(challenger.name);
    const flipped = page.locator(`[data-testid="why-pick"][data-skill="${challenger.name}"]`);
    await expect
      .poll(() => flipped.textContent())
      .toContain(`won stage ${j + 1} (s${trace.stages[j]!.from} → s${trace.stages[j]!.to})`);
    expect(await flipped.textContent()).not.toBe(oldSentence);
    expect(
      await page.locator(`[data-testid="graph-edge"].winner[data-won~="${j}"]`).getAttribute('data-skill'),
    ).toBe(challenger.name);
    // The focused variant's card shows the what-if answer too, marked as such.
    const card = page.locator('.variant-card.active');
    await card.getByTestId('card-what-if').waitFor();
    expect(
      await card.locator('li').evaluateAll((lis) => lis.map((li) => li.firstChild?.textContent)),
    ).toEqual(
      (await page.getByTestId('answer').textContent())!
        .replace(/^Answer:\s*/, '')
        .replace(/\s*\(was:.*$/, '')
        .split(/,\s*/)
        .map((n) => n.trim()),
    );
    await page.getByText('What would make another skill win a stage?').click();
    await page.getByTestId('why-challenge').first().waitFor();
    // Every challenger's name reads in full: the picker is as wide as its longest name, and titled with the one picked.
    const pickers = await page.locator('[data-testid="why-challenge"] select').evaluateAll((selects) =>
      selects.map((el) => {
        const select = el as HTMLSelectElement;
        const style = getComputedStyle(select);
        const context = document.createElement('canvas').getContext('2d')!;
        context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const longest = Math.max(...[...select.options].map((o) => context.measureText(o.text).width));
        const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return { longest, room, title: select.title, picked: select.selectedOptions[0]?.text };
      }),
    );
    expect(pickers.length).toBeGreaterThan(0);
    for (const p of pickers) {
      expect(p.room).toBeGreaterThanOrEqual(p.longest);
      expect(p.title).toBe(p.picked);
    }
    await page.getByText('What the numbers mean').click();
    await inBothThemes(page, 'lab-why-what-if', 'section[aria-label="Execution graph"]');
    await inBothThemes(page, 'lab-why-stages', 'section[aria-label="Nodes and stages"]');
    expect(problems).toEqual([]);
  }, 240_000);

  it('keeps labels apart and headers inside their stage on a four-stage task in a small window', async () => {
    const { server, page, problems } = session;
    await page.setViewportSize({ width: 1000, height: 700 });
    await page.getByRole('button', { name: 'Reset' }).click();
    await runSample(page, 'sh-04');
    const trace = (await latestFull(server)).trace;
    expect(trace.stages.length).toBeGreaterThanOrEqual(3);
    await expect.poll(() => page.locator('[data-testid="graph-stage"]').count()).toBe(trace.stages.length);
    const boxes = await labelBoxes(page);
    expect(boxes.length).toBeGreaterThanOrEqual(trace.stages.length);
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++)
        expect(overlaps(boxes[i]!, boxes[j]!), `${boxes[i]!.text} / ${boxes[j]!.text}`).toBe(false);
    // Stage headers stay within their stage and never run into the next one's.
    const headers = await page.locator('[data-testid="graph-stage"]').evaluateAll((gs) =>
      gs.map((g) => {
        const rect = g.querySelector('rect')!.getBBox();
        const texts = [...g.querySelectorAll('text')].map((t) => (t as SVGTextElement).getBBox());
        return {
          rect: { x: rect.x, width: rect.width },
          texts: texts.map((b) => ({ x: b.x, width: b.width })),
        };
      }),
    );
    for (const [i, h] of headers.entries()) {
      for (const t of h.texts) {
        expect(t.x).toBeGreaterThanOrEqual(h.rect.x);
        expect(t.x + t.width).toBeLessThanOrEqual(h.rect.x + h.rect.width);
        const next = headers[i + 1];
        if (next) expect(t.x + t.width).toBeLessThanOrEqual(next.rect.x);
        const prev = headers[i - 1];
        if (prev) expect(t.x).toBeGreaterThanOrEqual(prev.rect.x + prev.rect.width);
      }
    }
    await inBothThemes(page, 'lab-why-four-stages-1000x700', 'section[aria-label="Execution graph"]');
    expect(problems).toEqual([]);
  }, 240_000);
});
