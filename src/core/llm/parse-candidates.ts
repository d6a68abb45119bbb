// Which skills a parsing job sends: selection by review status and ids, and the cache by (content hash, prompt
// version, model), including parses of identical content stored for another copy of the skill.
import type { ReviewStatus } from '../../shared/api/library';
import { CuratorError } from '../../shared/errors';
import type { Db } from '../store/db';
import { findCachedParse, protectedStatuses, recordParse } from '../states/skill-states';
import { FAILED_ATTEMPT_EXISTS } from '../states/parse-attempts';
import type { Clock } from './ports';

export interface Candidate {
  id: number;
  name: string;
  fullText: string;
  contentHash: string;
  status: ReviewStatus | null;
  model: string | null;
  promptVersion: string | null;
  sourceHash: string | null;
}

export function isCurrent(c: Candidate, model: string, promptVersion: string): boolean {
  return (
    c.status === 'parsed' &&
    c.sourceHash === c.contentHash &&
    c.model === model &&
    c.promptVersion === promptVersion
  );
}

/** Which skills a parse covers and how; the parse job's params and the estimate's request. */
export interface ParseScope {
  /** Which records to (re)parse; default 'unparsed' (also covers parsed skills whose content changed). With ids and no `only`: 'all'. */
  only?: 'unparsed' | 'failed' | 'all';
  ids?: number[];
  /** Send even when a cached parse exists. Never replaces edited or verified states by itself. */
  force?: boolean;
  /** Replace edited/verified records of the skills named in `ids` (the curator chose Replace; old values go to history). */
  replace?: boolean;
}

/**
 * The rules a parse (and its estimate) applies to each candidate: edited or verified states are kept unless the curator
 * chose Replace for that skill, a current parse answers from the cache unless sending is forced, the rest is sent.
 */
export function parseRules(scope: ParseScope, model: string, promptVersion: string) {
  const only = scope.only ?? (scope.ids ? 'all' : 'unparsed');
  const explicit = new Set(scope.ids ?? []);
  // "Retry failed" also means skills whose states were kept after a failed attempt: their cached parse is no answer.
  const sendAnyway = scope.force === true || only === 'failed';
  const mayReplace = (c: Candidate) => scope.replace === true && explicit.has(c.id);
  const fate = (c: Candidate): 'kept' | 'cached' | 'send' => {
    if (c.status !== null && protectedStatuses.includes(c.status) && !mayReplace(c)) return 'kept';
    if (!sendAnyway && isCurrent(c, model, promptVersion)) return 'cached';
    return 'send';
  };
  return { only, sendAnyway, mayReplace, fate };
}

/** Another skill with identical content (e.g. the same skill in two sources) was already parsed: copy, don't send. */
export function reuseIdenticalParse(
  deps: { db: Db; clock: Clock },
  c: Candidate,
  model: string,
  promptVersion: string,
): boolean {
  const hit = findCachedParse(deps.db, { sourceHash: c.contentHash, promptVersion, model });
  if (!hit) return false;
  return recordParse(
    deps.db,
    deps.clock,
    c.id,
    {
      outcome: 'parsed',
      precondition: hit.precondition,
      completion: hit.completion,
      rawAnswer: hit.rawAnswer,
      error: null,
      model,
      promptVersion,
      sourceHash: c.contentHash,
      promptTokens: 0,
      completionTokens: 0,
    },
    false,
  );
}

export function selectCandidates(
  db: Db,
  only: 'unparsed' | 'failed' | 'all',
  ids: number[] | undefined,
): Candidate[] {
  const where: string[] = [];
  if (only === 'unparsed') {
    where.push(
      "(st.status IS NULL OR st.status = 'unparsed' OR (st.status = 'parsed' AND st.source_hash != s.content_hash))",
    );
  } else if (only === 'failed') where.push(`(st.status = 'failed' OR ${FAILED_ATTEMPT_EXISTS})`);
  if (ids) {
    if (ids.length === 0) return [];
    // One JSON parameter instead of one per id: no limit on how many ids a curator selects.
    where.push('s.id IN (SELECT value FROM json_each(?))');
  }
  const rows = db
    .prepare(
      `SELECT s.id, s.name, s.full_text AS fullText, s.content_hash AS contentHash, st.status, st.model,
         st.prompt_version AS promptVersion, st.source_hash AS sourceHash
       FROM skills s LEFT JOIN skill_states st ON st.skill_id = s.id
       ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY s.id`,
    )
    .all(...(ids ? [JSON.stringify(ids)] : [])) as Candidate[];
  if (ids) {
    const found = new Set(rows.map((r) => r.id));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length && only === 'all')
      throw new CuratorError('NOT_FOUND', `No skills with ids ${missing.join(', ')}`);
  }
  return rows;
}
