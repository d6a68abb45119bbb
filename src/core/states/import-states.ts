// Imports reviewed states from a JSONL file ({name, precondition, completion} per line), e.g. the sample library's
// or another curator's. States a person already edited or verified here are kept unless overwrite is asked for.
import { z } from 'zod';
import { CuratorError } from '../../shared/errors';
import { readRegularFile } from '../skills/sources/safe-open';
import type { Db } from '../store/db';
import { editStates, getStates, verifyStates } from './skill-states';

const lineSchema = z.object({
  name: z.string().trim().min(1),
  precondition: z.string().trim().min(1).nullable(),
  completion: z.string().trim().min(1),
});

export interface StatesImportResult {
  applied: number;
  keptHumanEdits: string[];
  unknownSkills: string[];
  errors: { line: number; message: string }[];
}

export async function importStatesFile(
  db: Db,
  clock: () => Date,
  req: { path: string; verify?: boolean; overwrite?: boolean },
): Promise<StatesImportResult> {
  let text: string;
  try {
    text = await readRegularFile(req.path);
  } catch (error) {
    if (error instanceof CuratorError) throw error;
    throw new CuratorError('NOT_FOUND', `Cannot read ${req.path}: ${(error as Error).message}`);
  }
  const result: StatesImportResult = { applied: 0, keptHumanEdits: [], unknownSkills: [], errors: [] };
  const byName = db.prepare('SELECT id FROM skills WHERE name = ? ORDER BY updated_at DESC');
  for (const [i, raw] of text.split('\n').entries()) {
    if (raw.trim() === '') continue;
    let parsed: z.infer<typeof lineSchema>;
    try {
      const checked = lineSchema.safeParse(JSON.parse(raw));
      if (!checked.success)
        throw new Error(checked.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; '));
      parsed = checked.data;
    } catch (error) {
      result.errors.push({ line: i + 1, message: (error as Error).message });
      continue;
    }
    const ids = byName.all(parsed.name) as { id: number }[];
    if (ids.length === 0) result.unknownSkills.push(parsed.name);
    for (const { id } of ids) {
      const current = getStates(db, id);
      if (!req.overwrite && (current.status === 'edited' || current.status === 'verified')) {
        result.keptHumanEdits.push(parsed.name);
        continue;
      }
      editStates(db, clock, id, { precondition: parsed.precondition, completion: parsed.completion });
      if (req.verify) verifyStates(db, clock, id);
      result.applied++;
    }
  }
  return result;
}
