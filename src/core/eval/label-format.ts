// The JSONL label format: one task a line with its gold skills, optional interchangeable groups per required stage,
// an optional hand-typed parse and a domain. Every bad line is reported with its number; nothing is half-imported.
import type { LabelItem } from '../../shared/api/evaluation';
export type { LabelItem };
import type { z } from 'zod';
import { CuratorError } from '../../shared/errors';
import { parseJsonText } from '../json-syntax';
import { schema } from '../zod';

export const labelItemSchema = schema((z) => {
  const nonEmpty = z.string().trim().min(1);
  return z
    .object({
      id: nonEmpty.max(200),
      task: nonEmpty.max(4000),
      // Empty: no skill in the library fits the task, and the right answer is none.
      gold: z.array(nonEmpty),
      groups: z.array(z.array(nonEmpty).min(1)).min(1).optional(),
      // Skills that must not be answered (a should-not-trigger query for a skill).
      avoid: z.array(nonEmpty).min(1).optional(),
      parse: z
        .object({ subtasks: z.array(nonEmpty), states: z.array(nonEmpty) })
        .refine(
          (p) => p.states.length === p.subtasks.length + 1,
          'parse.states needs one more entry than parse.subtasks',
        )
        .optional(),
      domain: z.string().optional(),
    })
    .strict()
    .refine(
      (i) => i.gold.length > 0 || i.groups === undefined,
      'groups need gold skills; an empty gold means no skill fits',
    )
    .refine(
      (i) => !(i.avoid ?? []).some((a) => i.gold.includes(a) || (i.groups ?? []).some((g) => g.includes(a))),
      'a skill cannot be both gold and avoided',
    );
});

export interface LabelLineError {
  line: number;
  message: string;
}

/** Parses a whole JSONL text; throws VALIDATION_FAILED listing every bad line (blank lines are skipped). */
export function parseLabelJsonl(text: string): LabelItem[] {
  const items: LabelItem[] = [];
  const errors: LabelLineError[] = [];
  const seen = new Set<string>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === '') return;
    const json = parseJsonText(raw);
    if (!json.ok) {
      errors.push({ line, message: json.message });
      return;
    }
    const parsed = labelItemSchema().safeParse(json.value);
    if (!parsed.success) {
      errors.push({ line, message: describeIssues(parsed.error.issues) });
      return;
    }
    if (seen.has(parsed.data.id)) {
      errors.push({ line, message: `id ${JSON.stringify(parsed.data.id.slice(0, 80))} appears twice` });
      return;
    }
    seen.add(parsed.data.id);
    items.push(parsed.data);
  });
  if (errors.length > 0)
    throw new CuratorError(
      'VALIDATION_FAILED',
      `${errors.length} bad line(s) in the label file; nothing was imported`,
      {
        errors: errors.slice(0, 50),
      },
    );
  if (items.length === 0) throw new CuratorError('VALIDATION_FAILED', 'The label file has no tasks');
  return items;
}

/**
 * What is wrong with a line, in words that quote no value from it: the file may be any file the host was pointed at.
 * Unknown keys are named only when they look like field names.
 */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 10)
    .map((x) => {
      const where = x.path.map(String).join('.') || 'line';
      if (x.code === 'unrecognized_keys') {
        const named = x.keys.filter((k) => /^[A-Za-z_][\w-]{0,39}$/.test(k));
        return `${where}: unknown key${x.keys.length > 1 ? 's' : ''}${named.length === x.keys.length ? ` ${named.join(', ')}` : ''}`;
      }
      return `${where}: ${x.message}`;
    })
    .join('; ');
}

export function validateLabelItem(value: unknown): LabelItem {
  const parsed = labelItemSchema().safeParse(value);
  if (!parsed.success)
    throw new CuratorError('VALIDATION_FAILED', 'Not a valid label item', {
      issues: parsed.error.issues.map((x) => ({ path: x.path.join('.'), message: x.message })),
    });
  return parsed.data;
}

export function toJsonl(items: readonly LabelItem[]): string {
  return items.map((i) => JSON.stringify(i)).join('\n') + '\n';
}
