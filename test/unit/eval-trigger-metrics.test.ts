// Per-skill trigger figures: should-trigger and should-not-trigger counts, trigger precision TP/(TP+FP) and recall
// TP/should-trigger, per variant; only sets of trigger-style items get them.
import { describe, expect, it } from 'vitest';
import { isTriggerStyle, triggerFigures, triggerSkills } from '../../src/core/eval/trigger-metrics';

const row = (
  itemId: string,
  gold: string[],
  answer: string[],
  avoid?: string[],
  variant = 'full' as const,
) => ({
  itemId,
  variant,
  gold,
  answer,
  ...(avoid ? { avoid } : {}),
});

describe('trigger figures', () => {
  it('counts triggered and falsely triggered queries and computes precision and recall by hand', () => {
    const rows = [
      row('t1', ['pdf'], ['pdf']),
      row('t2', ['pdf'], ['docx']),
      row('t3', ['pdf'], ['pdf', 'docx']),
      row('n1', [], ['pdf'], ['pdf']),
      row('n2', [], [], ['pdf']),
      row('n3', [], ['docx'], ['pdf']),
    ];
    const [full] = triggerFigures(rows, ['pdf']);
    // TP = 2 (t1, t3), FP = 1 (n1): P = 2/3, R = 2/3.
    expect(full).toEqual({
      variant: 'full',
      skills: [
        {
          skill: 'pdf',
          shouldTrigger: 3,
          triggered: 2,
          shouldNot: 3,
          falselyTriggered: 1,
          precision: 2 / 3,
          recall: 2 / 3,
        },
      ],
    });
  });

  it('leaves precision and recall empty where there is nothing to divide by, and keeps variants apart', () => {
    const rows = [
      row('n1', [], [], ['pdf']),
      { ...row('n1', [], ['pdf'], ['pdf']), variant: 'no-parse' as const, k: 1 },
    ];
    const figures = triggerFigures(rows, ['pdf']);
    expect(figures.map((f) => [f.variant, f.k, f.skills[0]!.precision, f.skills[0]!.recall])).toEqual([
      ['full', undefined, null, null],
      ['no-parse', 1, 0, null],
    ]);
  });

  it('takes the skills from single gold skills and avoids; multi-skill task sets are not trigger-style', () => {
    const items = [{ gold: ['pdf'] }, { gold: ['a', 'b'] }, { gold: [], avoid: ['docx'] }];
    expect(triggerSkills(items)).toEqual(['docx', 'pdf']);
    expect(isTriggerStyle(items)).toBe(true);
    expect(isTriggerStyle([{ gold: ['pdf'] }, { gold: ['pdf'] }, { gold: [] }])).toBe(true);
    expect(isTriggerStyle([{ gold: ['pdf'] }, { gold: ['a', 'b'] }])).toBe(false);
    expect(isTriggerStyle([{ gold: [] }])).toBe(false);
  });
});
