// Which skills a parsing job sends: selection by review status and ids, and the cache by (content hash, prompt
// version, model), including parses of identical content stored for another copy of the skill.
import type { ReviewStatus } from '../../shared/api/library';
import { CuratorError } from '../../shared/errors';
import type { Db } from '../store/db';
import { findCachedParse, recordParse } from '../states/skill-states';
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
