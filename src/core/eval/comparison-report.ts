// A comparison of two evaluation runs in words: what changed in the setup, metric deltas, changed tasks, edited skills,
// and on trigger query sets each skill's trigger precision and recall before → after with the queries that flipped.
import type { EvalComparison, TriggerFigures } from '../../shared/api/evaluation';
import { changeCounts } from '../../shared/skill-change-words';

const label = (v: { variant: string; k?: number }): string => (v.k ? `${v.variant}@${v.k}` : v.variant);
const signed = (x: number | undefined): string =>
  x === undefined ? '–' : `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}`;
const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const list = (xs: string[]): string => (xs.length ? xs.map(cell).join(', ') : '(none)');

export function comparisonToMarkdown(c: EvalComparison): string {
  const lines = [
    `# Run ${c.runId} compared with run ${c.baseRunId}: ${cell(c.setName)}`,
    '',
    c.setupChanges.length
      ? `Changed between the runs: ${c.setupChanges.join(', ')}.`
      : 'Same library, engines and settings.',
    '',
    '| variant | ΔP | ΔR | ΔF1 | Δexact | ΔHit@1 | Δstage cov. | Δsize |',
    '|---|---|---|---|---|---|---|---|',
    ...c.metrics.map((m) =>
      m.only
        ? `| ${label(m)} | only in the ${m.only} run | | | | | | |`
        : `| ${label(m)} | ${signed(m.delta.precision)} | ${signed(m.delta.recall)} | ${signed(m.delta.f1)} | ${signed(m.delta.exactMatch)} | ${signed(m.delta.hitAt1)} | ${signed(m.delta.stageCoverage)} | ${m.delta.meanAnswerSize === undefined ? '–' : m.delta.meanAnswerSize.toFixed(2)} |`,
    ),
    '',
    'Deltas in percentage points (size: skills per answer), current run minus the earlier one.',
    '',
    `## Tasks whose answers changed (${c.changedTasks.length})`,
    '',
  ];
  if (c.changedTasks.length) {
    lines.push('| task | gold | variant | before | after | F1 |', '|---|---|---|---|---|---|');
    for (const t of c.changedTasks)
      for (const ch of t.changes)
        lines.push(
          `| ${cell(t.itemId)}: ${cell(t.task)} | ${list(t.gold)} | ${label(ch)} | ${list(ch.before)} | ${list(ch.after)} | ${signed(ch.f1Before).replace('+', '')} → ${signed(ch.f1After).replace('+', '')} |`,
        );
    lines.push('');
  }
  lines.push(...triggerLines(c));
  lines.push(
    `## Skills changed between the runs (${c.editedSkills.length}${changeCounts(c.editedSkills)})`,
    '',
  );
  for (const s of c.editedSkills) {
    lines.push(
      `- **${cell(s.name)}**: ${s.changes.join(', ')}${s.inChangedTasks.length ? `; in changed tasks ${s.inChangedTasks.join(', ')}` : ''}`,
    );
    for (const h of s.history)
      lines.push(
        `  - ${h.at} ${h.action}: ${cell(h.after.precondition ?? 'None')} → ${cell(h.after.completion ?? '')}`,
      );
  }
  return lines.join('\n') + '\n';
}

const share = (x: number | null | undefined): string =>
  x === null || x === undefined ? '–' : (100 * x).toFixed(1);
const figures = (f: TriggerFigures | null, key: 'precision' | 'recall') => share(f?.[key]);

function triggerLines(c: EvalComparison): string[] {
  if (!c.triggers) return [];
  const lines = [
    `## Trigger figures per skill (${c.triggers.filter((t) => t.flips.length > 0).length} with flipped queries)`,
    '',
    '| skill | variant | trigger P | trigger R | flipped queries |',
    '|---|---|---|---|---|',
  ];
  for (const t of c.triggers)
    lines.push(
      `| ${cell(t.skill)} | ${label(t)} | ${figures(t.base, 'precision')} → ${figures(t.current, 'precision')} | ${figures(t.base, 'recall')} → ${figures(t.current, 'recall')} | ${
        t.flips
          .map(
            (f) =>
              `${cell(f.itemId)} (${f.shouldTrigger ? 'should trigger' : 'should not'}: ${f.after ? 'now triggers' : 'no longer triggers'})`,
          )
          .join('<br>') || '–'
      } |`,
    );
  lines.push('', 'Trigger P and R in %, the earlier run → this one.', '');
  return lines;
}
