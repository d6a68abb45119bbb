// Imports reviewed states from a JSONL file ({name, precondition, completion} per line), e.g. the sample library's
// or another curator's (`states export` writes one). Applied states count as edited; a line with "status": "verified"
// is marked verified too (`verify` marks every line), so a verified skill stays verified in another library, and a
// line with "status": "parsed" comes in as a parse (by its "model"), still to be reviewed: an LLM's answer is not
// made a person's edit by moving it. States a person already edited or verified here are kept unless overwrite is
// asked for; states that equal what a line would write are counted unchanged (the same file applied twice).
import { stat } from 'node:fs/promises';
import { statusesWithStates } from '../../shared/api/llm';
import { CuratorError } from '../../shared/errors';
import { missingPathError } from '../missing-path';
import { describeIssues } from '../eval/label-format';
import { parseJsonText } from '../json-syntax';
import { fileTypeName, readRegularFile } from '../skills/sources/safe-open';
import type { Db } from '../store/db';
import { schema } from '../zod';
import type { SkillStates } from '../../shared/api';
import {
  importSuppressionLine,
  SUPPRESSION_LINE_KIND,
  suppressionLineSchema,
} from '../audit/suppressions-file';
import { editStates, getStates, recordParse, verifyStates, type ParseRecord } from './skill-states';

const lineSchema = schema((z) =>
  z.object({
    name: z.string().trim().min(1),
    precondition: z.string().trim().min(1).nullable(),
    completion: z.string().trim().min(1),
    // What `states export` wrote the line from: "verified" is verified here too, "parsed" stays a parse.
    status: z.enum(statusesWithStates).optional(),
    model: z.string().trim().min(1).max(200).optional(),
  }),
);

const maxStatesFileBytes = 64 * 1024 * 1024;

export interface StatesImportResult {
  applied: number;
  /** Skills whose states already are what the line would write (same texts, same status): nothing was written. */
  unchanged: string[];
  keptHumanEdits: string[];
  unknownSkills: string[];
  errors: { line: number; message: string }[];
  suppressions: { applied: number; unchanged: number };
}

export async function importStatesFile(
  db: Db,
  clock: () => Date,
  req: { path: string; verify?: boolean; overwrite?: boolean },
): Promise<StatesImportResult> {
  // Checked before opening: a FIFO or a device would never end, and a huge file would fill memory.
  const info = await stat(req.path).catch(() => null);
  if (!info) throw missingPathError(`No states file at ${req.path}`, req.path);
  if (!info.isFile())
    throw new CuratorError('INVALID_ARGUMENT', `${req.path} is ${fileTypeName(info)}, not a regular file`);
  if (info.size > maxStatesFileBytes)
    throw new CuratorError('TOO_LARGE', `${req.path} is over ${maxStatesFileBytes} bytes`);
  let text: string;
  try {
    text = await readRegularFile(req.path);
  } catch (error) {
    if (error instanceof CuratorError) throw error;
    throw new CuratorError('NOT_FOUND', `Cannot read ${req.path}: ${(error as Error).message}`);
  }
  const result: StatesImportResult = {
    applied: 0,
    unchanged: [],
    keptHumanEdits: [],
    unknownSkills: [],
    errors: [],
    suppressions: { applied: 0, unchanged: 0 },
  };
  const byName = db.prepare('SELECT id FROM skills WHERE name = ? ORDER BY updated_at DESC');
  for (const [i, raw] of text.split('\n').entries()) {
    if (raw.trim() === '') continue;
    const json = parseJsonText(raw);
    if (!json.ok) {
      result.errors.push({ line: i + 1, message: json.message });
      continue;
    }
    if ((json.value as { kind?: unknown } | null)?.kind === SUPPRESSION_LINE_KIND) {
      const line = suppressionLineSchema().safeParse(json.value);
      if (!line.success) result.errors.push({ line: i + 1, message: describeIssues(line.error.issues) });
      else {
        const done = importSuppressionLine(db, line.data);
        if (done === 'unknown-skill') result.unknownSkills.push(line.data.name!);
        else result.suppressions[done]++;
      }
      continue;
    }
    const checked = lineSchema().safeParse(json.value);
    if (!checked.success) {
      result.errors.push({ line: i + 1, message: describeIssues(checked.error.issues) });
      continue;
    }
    const parsed = checked.data;
    const ids = byName.all(parsed.name) as { id: number }[];
    if (ids.length === 0) result.unknownSkills.push(parsed.name);
    for (const { id } of ids) {
      const current = getStates(db, id);
      if (alreadyThere(current, parsed, req)) {
        result.unchanged.push(parsed.name);
        continue;
      }
      if (!req.overwrite && (current.status === 'edited' || current.status === 'verified')) {
        result.keptHumanEdits.push(parsed.name);
        continue;
      }
      try {
        db.transaction(() => {
          if (parsed.status === 'parsed' && !req.verify)
            recordParse(db, clock, id, importedParse(db, id, parsed), !!req.overwrite);
          else {
            editStates(db, clock, id, { precondition: parsed.precondition, completion: parsed.completion });
            if (req.verify || parsed.status === 'verified') verifyStates(db, clock, id);
          }
        }).immediate();
        result.applied++;
      } catch (error) {
        // One line that cannot be applied is reported; the lines after it still are.
        result.errors.push({ line: i + 1, message: `not applied: ${(error as Error).message}` });
      }
    }
  }
  return result;
}

const statusRank: Record<string, number> = { parsed: 1, edited: 2, verified: 3 };

/**
 * Whether a line would leave the skill's states as they are: the same texts, not outdated, and the status the line
 * would give (a parse line by the same model). Kept rather than overwritten, a reviewed skill with the same texts is
 * unchanged too, unless the line would verify what is only edited here.
 */
function alreadyThere(
  current: SkillStates,
  line: { precondition: string | null; completion: string; status?: string; model?: string },
  req: { verify?: boolean; overwrite?: boolean },
): boolean {
  if (
    current.outdated ||
    current.precondition !== line.precondition ||
    current.completion !== line.completion
  )
    return false;
  const target =
    req.verify || line.status === 'verified' ? 'verified' : line.status === 'parsed' ? 'parsed' : 'edited';
  if (target === 'parsed' && current.status === 'parsed')
    return current.model === (line.model ?? importedModel);
  if (current.status === target) return true;
  const reviewed = current.status === 'edited' || current.status === 'verified';
  return !req.overwrite && reviewed && statusRank[current.status]! >= statusRank[target]!;
}

const importedModel = 'unknown (imported)';

/** Marks a parse that came from a states file rather than from an LLM call here. */
export const importedPromptVersion = 'imported';

/** A parse line of a states file as this library records a parse: of the skill as it is here, by the model it names. */
function importedParse(
  db: Db,
  skillId: number,
  line: { precondition: string | null; completion: string; model?: string },
): ParseRecord {
  const { content_hash: sourceHash } = db
    .prepare('SELECT content_hash FROM skills WHERE id = ?')
    .get(skillId) as { content_hash: string };
  return {
    outcome: 'parsed',
    precondition: line.precondition,
    completion: line.completion,
    rawAnswer: null,
    error: null,
    model: line.model ?? importedModel,
    promptVersion: importedPromptVersion,
    sourceHash,
    promptTokens: 0,
    completionTokens: 0,
  };
}
