// The CLI's trace text as a curator reads it: stages numbered from 1 like the why sentences and the Selection lab,
// no section header over nothing, and a dense ranking that says when it only counted shared words.
import { describe, expect, it } from 'vitest';
import { explainSelection } from '../../src/core/select/explain';
import { renderTrace } from '../../src/core/select/render-trace';
import { selectSkills } from '../../src/core/select/select';
import type { Variant } from '../../src/core/select/trace-types';
import { TableScorer } from './select-fixtures';
import { mugInput, mugTable } from './select-mug-fixture';

async function text(variant: Variant, options: { recallModel?: string; candidates?: boolean } = {}) {
  const input = options.candidates === false ? { ...mugInput, candidates: [] } : mugInput;
  const trace = await selectSkills(input, new TableScorer(mugTable, 0), {
    variant,
    recallModel: options.recallModel ?? 'lexical:bm25',
  });
  return { trace, text: renderTrace(trace, { why: explainSelection(trace) }) };
}

/** Lines like "Why:" or "Ranking:" with no indented line under them. */
function emptyHeaders(rendered: string): string[] {
  const lines = rendered.split('\n');
  return lines.filter((l, i) => /^[A-Z][a-z ]*:$/.test(l) && !/^\s+\S/.test(lines[i + 1] ?? ''));
}

describe('renderTrace', () => {
  it('numbers stages from 1, as the why sentences do, and keeps the states s0..sm', async () => {
    const { trace, text: rendered } = await text('full');
    expect(trace.stages.length).toBeGreaterThan(1);
    const headers = rendered.split('\n').filter((l) => l.startsWith('Stage '));
    expect(headers).toEqual(trace.stages.map((s, i) => `Stage ${i + 1} (s${s.from} → s${s.to}): ${s.tau}`));
    const first = trace.stages[0]!;
    expect(rendered).toContain(`stage 1 (s${first.from} → s${first.to}`);
    expect(rendered).not.toContain('Stage 0');
  });

  it('prints a ranking or nothing, never an empty header', async () => {
    for (const variant of ['no-parse', 'dense'] as const) {
      const ranked = await text(variant);
      expect(ranked.text).toContain('Ranking:\n  1. ');
      expect(emptyHeaders(ranked.text)).toEqual([]);
      const empty = await text(variant, { candidates: false });
      expect(empty.text).not.toMatch(/^(Ranking|Why):/m);
      expect(emptyHeaders(empty.text)).toEqual([]);
    }
  });

  it('says when dense ranked by shared words because no embedding model is set up', async () => {
    const lexical = await text('dense');
    expect(lexical.text).toContain(
      'Variant: dense (k = 2), ranked by shared words: no embedding model is set up',
    );
    const embedded = await text('dense', { recallModel: 'embedder:qwen3-embedding-0.6b' });
    expect(embedded.text).toContain('Variant: dense (k = 2)\n');
  });
});
