// The skill-parsing job: sends each selected skill's full text to the LLM (a few at a time), stores the strict
// parse or a failure with the raw answer, and skips what is cached, protected or already done by an earlier run.
import type { JobProgress } from '../../shared/jobs';
import { CuratorError } from '../../shared/errors';
import type { JobContext } from '../jobs/job-runner';
import type { Db } from '../store/db';
import { recordParse } from '../states/skill-states';
import { recordFailedAttempt } from '../states/parse-attempts';
import {
  parseRules,
  reuseIdenticalParse,
  selectCandidates,
  type Candidate,
  type ParseScope,
} from './parse-candidates';
import { parseSkillAnswer } from './answer-parsers';
import { itemKey, readEarlierRuns, type ParseItemDetail } from './parse-ledger';
import type { EndpointProblem } from './endpoint-errors';
import type { Clock, LlmClient, Logger } from './ports';
import { SKILL_PARSE_PROMPT_VERSION, buildSkillParseMessages, newBoundary } from './prompts';
import { estimateCost } from './settings';

export interface ParseSkillsDeps {
  db: Db;
  llm: LlmClient;
  clock: Clock;
  logger: Logger;
  /** Told which skills' stored states changed (for `states.changed` events). */
  onChanged?: (skillIds: number[]) => void;
}

export type ParseSkillsParams = ParseScope;

/** The subset of JobContext the job uses (JobRunner's context satisfies it). */
export type ParseJob = Pick<JobContext, 'signal' | 'report' | 'isItemDone' | 'markItem' | 'markedItems'> &
  Partial<Pick<JobContext, 'jobId'>>;

export interface ParseSkillsResult {
  /** Skills the selection covered. */
  total: number;
  parsed: number;
  failed: number;
  /** Answered from a stored parse of identical content; nothing sent. */
  cached: number;
  /** Edited or verified records that were left alone. */
  protected: number;
  /** Finished by an earlier run of this job (its tokens are in the totals). */
  resumed: number;
  promptTokens: number;
  completionTokens: number;
  estimatedCost: number;
}

/** Failures of one skill; every other endpoint problem stops the job (the next skills would fail the same way). */
const itemProblems: EndpointProblem[] = ['too-large', 'bad-request'];

const MAX_REJECTED_IN_A_ROW = 3;

export { itemKey } from './parse-ledger';

/** Said when a wrong answer was cut at the token limit: the fix is a setting, not the skill. */
export function cutOffHint(llm: LlmClient): string {
  return `The answer was cut off at the token limit (maxTokens = ${llm.settings.maxTokens}); a reasoning model may need more.`;
}

export async function parseSkills(
  deps: ParseSkillsDeps,
  params: ParseSkillsParams,
  job: ParseJob,
): Promise<ParseSkillsResult> {
  const { db, llm, clock, logger } = deps;
  const model = llm.settings.model;
  const promptVersion = SKILL_PARSE_PROMPT_VERSION;
  const { only, sendAnyway, mayReplace, fate } = parseRules(params, model, promptVersion);
  const selected = selectCandidates(db, only, params.ids);
  // A resumed job covers the whole job: what earlier runs finished, failed and spent stays in its totals, also for
  // skills the selection no longer holds because an earlier run parsed them.
  const earlier = readEarlierRuns(job.markedItems());
  const outside = earlier.outside(new Set(selected.map((c) => c.id)));
  const result: ParseSkillsResult = {
    total: selected.length + outside.done + outside.failed,
    parsed: 0,
    failed: outside.failed,
    cached: 0,
    protected: 0,
    resumed: outside.done,
    promptTokens: earlier.spent.promptTokens,
    completionTokens: earlier.spent.completionTokens,
    estimatedCost: estimateCost(llm.settings, earlier.spent.promptTokens, earlier.spent.completionTokens),
  };
  const counted = () => result.parsed + result.failed + result.cached + result.protected + result.resumed;
  let sentDone = 0;
  let sendStartedAt = 0;
  const toSend: Candidate[] = [];

  const report = (message?: string) => {
    const progress: JobProgress = {
      done: counted(),
      total: result.total,
      failed: result.failed,
      counters: {
        promptTokens: result.promptTokens,
        completionTokens: result.completionTokens,
        estimatedCost: result.estimatedCost,
        cached: result.cached,
        protected: result.protected,
      },
    };
    if (message) progress.message = message;
    if (sentDone > 0) {
      const perItem = (clock().getTime() - sendStartedAt) / 1000 / sentDone;
      progress.etaSeconds = Math.round(perItem * (toSend.length - sentDone));
    }
    job.report(progress);
  };

  for (const c of selected) {
    const cFate = job.isItemDone(itemKey(c.id)) ? 'resumed' : fate(c);
    if (cFate === 'resumed') result.resumed++;
    else if (cFate === 'kept') result.protected++;
    else if (cFate === 'cached') result.cached++;
    else if (!sendAnyway && reuseIdenticalParse(deps, c, model, promptVersion)) {
      result.cached++;
      deps.onChanged?.([c.id]);
      job.markItem(itemKey(c.id), 'done', { outcome: 'cached', promptTokens: 0, completionTokens: 0 });
    } else toSend.push(c);
  }
  logger.info('Parsing skills', { model, promptVersion, selected: result.total, toSend: toSend.length });
  report(toSend.length ? `Sending ${toSend.length} skills to ${model}` : 'Nothing to send');

  const stop = new AbortController();
  const onJobAbort = () => stop.abort();
  job.signal.addEventListener('abort', onJobAbort, { once: true });
  let stopError: CuratorError | undefined;
  let next = 0;
  let rejectedInARow = 0;
  sendStartedAt = clock().getTime();

  const worker = async () => {
    while (!stop.signal.aborted && next < toSend.length) {
      const c = toSend[next++] as Candidate;
      try {
        await parseOne(c);
      } catch (error) {
        if (stop.signal.aborted) return;
        stopError = asStopError(error, c);
        stop.abort();
        recordStop(c, error);
        return;
      }
    }
  };

  // The skill the job stopped at shows why on its page (e.g. a 500), its states untouched.
  const recordStop = (c: Candidate, error: unknown) => {
    if (!(error instanceof CuratorError) || error.code === 'CANCELLED') return;
    const problem = (error.details as { problem?: EndpointProblem } | undefined)?.problem ?? null;
    try {
      recordFailedAttempt(db, clock, c.id, {
        error: error.message,
        problem,
        rawAnswer: null,
        model,
        promptVersion,
        sourceHash: c.contentHash,
        jobId: job.jobId ?? null,
      });
      deps.onChanged?.([c.id]);
    } catch (e) {
      // The job's own error says why it stopped; a skill removed meanwhile must not hide it.
      logger.warn('Could not record the failed attempt', { skillId: c.id, reason: String(e) });
    }
  };

  const parseOne = async (c: Candidate) => {
    const overwrite = mayReplace(c);
    let raw: string | null = null;
    let error: string | null = null;
    let usage = { promptTokens: 0, completionTokens: 0 };
    let cutOff = false;
    let rejection: CuratorError | undefined;
    let problem: EndpointProblem | null = null;
    try {
      const answer = await llm.complete(buildSkillParseMessages(c.fullText, newBoundary()), {
        signal: stop.signal,
      });
      raw = answer.text;
      usage = answer.usage;
      cutOff = answer.finishReason === 'length';
      rejectedInARow = 0;
    } catch (e) {
      const details = (e as CuratorError).details as { problem?: EndpointProblem } | undefined;
      if (!(e instanceof CuratorError) || !details?.problem || !itemProblems.includes(details.problem))
        throw e;
      error = e.message;
      rejection = e;
      problem = details.problem;
    }
    const parsed = raw === null ? null : parseSkillAnswer(raw);
    if (parsed && !parsed.ok) error = cutOff ? `${parsed.error} ${cutOffHint(llm)}` : parsed.error;
    const ok = parsed?.ok === true;
    const before = earlier.spentOn(c.id);
    // One transaction: a kill between storing the parse and marking the item cannot lose or double the item.
    const stored = db
      .transaction(() => {
        const kept = recordParse(
          db,
          clock,
          c.id,
          {
            outcome: ok ? 'parsed' : 'failed',
            precondition: ok ? parsed.value.precondition : null,
            completion: ok ? parsed.value.completion : null,
            rawAnswer: raw,
            error,
            model,
            promptVersion,
            sourceHash: c.contentHash,
            promptTokens: usage.promptTokens,
            completionTokens: usage.completionTokens,
            problem,
            jobId: job.jobId ?? null,
          },
          overwrite,
        );
        const detail: ParseItemDetail = {
          // Not stored: a curator edited the record while the request was in flight.
          outcome: !kept ? 'protected' : ok ? 'parsed' : 'failed',
          promptTokens: before.promptTokens + usage.promptTokens,
          completionTokens: before.completionTokens + usage.completionTokens,
        };
        if (kept && !ok && error) detail.error = error;
        job.markItem(itemKey(c.id), ok || !kept ? 'done' : 'failed', detail);
        return kept;
      })
      .immediate();
    result.promptTokens += usage.promptTokens;
    result.completionTokens += usage.completionTokens;
    result.estimatedCost = estimateCost(llm.settings, result.promptTokens, result.completionTokens);
    sentDone++;
    if (stored) deps.onChanged?.([c.id]);
    if (!stored) result.protected++;
    else if (ok) result.parsed++;
    else {
      result.failed++;
      logger.warn('Skill parse failed', { skillId: c.id, reason: error });
    }
    report(`Parsed ${c.name}`);
    // Several rejections in a row point at the endpoint (e.g. a parameter the model does not accept), not the skills.
    if (rejection && ++rejectedInARow >= MAX_REJECTED_IN_A_ROW) {
      throw new CuratorError(
        rejection.code,
        `The endpoint rejected ${rejectedInARow} requests in a row (last: ${rejection.message})`,
        rejection.details,
      );
    }
  };

  try {
    const workers = Array.from({ length: Math.min(llm.settings.concurrency, toSend.length) }, worker);
    await Promise.all(workers);
  } finally {
    job.signal.removeEventListener('abort', onJobAbort);
  }
  if (job.signal.aborted)
    throw new CuratorError('CANCELLED', `Cancelled after ${counted()} of ${result.total} skills`);
  if (stopError) throw stopError;
  logger.info('Parsed skills', { ...result });
  report('Finished');
  return result;
}

function asStopError(error: unknown, c: Candidate): CuratorError {
  if (error instanceof CuratorError) {
    return new CuratorError(
      error.code,
      `Stopped at skill "${c.name}": ${error.message} Resume the job to continue where it stopped.`,
      error.details,
    );
  }
  return new CuratorError('INTERNAL', `Stopped at skill "${c.name}": ${String(error)}`);
}
