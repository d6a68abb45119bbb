// Strict parsers of the two answer formats. An answer is accepted whole or rejected whole, with a reason; the caller
// keeps the raw text either way. The only tolerance (see `answerLines`): line endings, whitespace around lines and the
// answer, blank lines, whitespace after a label's colon, and one leading <think>…</think> block that reasoning models
// emit before their answer. Everything else (prose, code fences, markdown, missing, extra, repeated or out-of-order
// lines, empty values, wrong numbering or counts) is a failure.

export type ParseOutcome<T> = { ok: true; value: T } | { ok: false; error: string };

export interface ParsedSkillStates {
  /** null when the answer was `None`: the skill needs nothing. */
  precondition: string | null;
  completion: string;
}

export interface TaskDecomposition {
  /** t_0..t_(m-1), in execution order. */
  subtasks: string[];
  /** s_0..s_m; always subtasks.length + 1 entries. */
  states: string[];
}

const preconditionLine = /^Precondition_State:[ \t]*(.*)$/;
const completionLine = /^Completion_State:[ \t]*(.*)$/;
const subtaskLine = /^Subtask[ \t]+(\d+):[ \t]*(.*)$/;
const stateLine = /^State[ \t]+(\d+):[ \t]*(.*)$/;

export function parseSkillAnswer(raw: string): ParseOutcome<ParsedSkillStates> {
  const lines = answerLines(raw);
  if (lines.length === 0) return failure('The answer is empty.');
  if (lines.length !== 2) {
    return failure(
      `Expected exactly two lines (Precondition_State, Completion_State); got ${lines.length} non-blank lines.`,
    );
  }
  const pre = preconditionLine.exec(lines[0] as string);
  if (!pre) return failure(`Line 1 must start with "Precondition_State:"; got "${preview(lines[0])}".`);
  const post = completionLine.exec(lines[1] as string);
  if (!post) return failure(`Line 2 must start with "Completion_State:"; got "${preview(lines[1])}".`);
  const precondition = (pre[1] ?? '').trim();
  const completion = (post[1] ?? '').trim();
  if (!precondition) return failure('The precondition is empty (it must be a state or None).');
  if (!completion) return failure('The completion state is empty.');
  if (isNone(completion)) return failure('The completion state is None; a skill must reach some state.');
  return { ok: true, value: { precondition: isNone(precondition) ? null : precondition, completion } };
}

export function parseTaskAnswer(raw: string): ParseOutcome<TaskDecomposition> {
  const lines = answerLines(raw);
  if (lines.length === 0) return failure('The answer is empty.');
  const subtasks: string[] = [];
  const states: string[] = [];
  for (const [i, line] of lines.entries()) {
    const sub = subtaskLine.exec(line);
    const state = sub ? null : stateLine.exec(line);
    const match = sub ?? state;
    if (!match) return failure(`Line ${i + 1} is neither "Subtask N:" nor "State N:": "${preview(line)}".`);
    if (sub && states.length > 0) return failure(`Line ${i + 1}: a Subtask line after the State lines.`);
    const list = sub ? subtasks : states;
    const label = sub ? 'Subtask' : 'State';
    const number = Number(match[1]);
    if (number !== list.length + 1) {
      return failure(`Line ${i + 1}: expected ${label} ${list.length + 1}, got ${label} ${match[1]}.`);
    }
    const text = (match[2] ?? '').trim();
    if (!text) return failure(`Line ${i + 1}: ${label} ${number} is empty.`);
    list.push(text);
  }
  if (subtasks.length === 0) return failure('The answer has no Subtask lines.');
  if (states.length !== subtasks.length + 1) {
    return failure(
      `Expected ${subtasks.length + 1} states for ${subtasks.length} sub-tasks; got ${states.length}.`,
    );
  }
  return { ok: true, value: { subtasks, states } };
}

/** Checks a decomposition typed by hand (or from an API call) against the same rules the parser applies. */
export function validateTaskDecomposition(d: {
  subtasks: unknown;
  states: unknown;
}): ParseOutcome<TaskDecomposition> {
  const isTexts = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
  if (!isTexts(d.subtasks) || !isTexts(d.states))
    return failure('Sub-tasks and states must be lists of text.');
  const subtasks = d.subtasks.map((s) => s.replace(/\s+/g, ' ').trim());
  const states = d.states.map((s) => s.replace(/\s+/g, ' ').trim());
  if (subtasks.length === 0) return failure('At least one sub-task is needed.');
  if (states.length !== subtasks.length + 1) {
    return failure(
      `Expected ${subtasks.length + 1} states for ${subtasks.length} sub-tasks; got ${states.length}.`,
    );
  }
  const empty = subtasks.findIndex((s) => !s);
  if (empty >= 0) return failure(`Sub-task ${empty + 1} is empty.`);
  const emptyState = states.findIndex((s) => !s);
  if (emptyState >= 0) return failure(`State ${emptyState + 1} is empty.`);
  return { ok: true, value: { subtasks, states } };
}

/** Renders a decomposition in the answer format (for showing and editing a parse as text). */
export function formatTaskDecomposition(d: TaskDecomposition): string {
  return [
    ...d.subtasks.map((s, i) => `Subtask ${i + 1}: ${s}`),
    ...d.states.map((s, i) => `State ${i + 1}: ${s}`),
  ].join('\n');
}

function answerLines(raw: string): string[] {
  const withoutThinking = raw.replace(/^\s*<think>[\s\S]*?<\/think>/, '');
  return withoutThinking
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

function isNone(value: string): boolean {
  return value === 'None' || value === 'None.';
}

function failure(error: string): { ok: false; error: string } {
  return { ok: false, error };
}

function preview(line: string | undefined): string {
  const text = line ?? '';
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
