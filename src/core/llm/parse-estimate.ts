// What a parse would cost before it starts: how many skills go to the model, and the tokens and money that takes,
// from this library's own past parses when there are enough of them (tokens per character, answer length), else
// from plain defaults. An estimate, said as such; the job counts the real figures.
import type { ParseEstimate } from '../../shared/api/llm';
import type { Db } from '../store/db';
import { parseRules, selectCandidates, type ParseScope } from './parse-candidates';
import {
  buildSkillParseMessages,
  MAX_SKILL_PROMPT_CHARS,
  newBoundary,
  SKILL_PARSE_PROMPT_VERSION,
} from './prompts';
import { estimateCost, type LlmEndpointSettings } from './settings';

export type ParseEstimateRequest = ParseScope;

const defaultCharsPerToken = 3.5;
const defaultAnswerTokens = 120;
const enoughHistory = 5;

const boundary = newBoundary();

function promptChars(fullText: string): number {
  const text = fullText.slice(0, MAX_SKILL_PROMPT_CHARS);
  return buildSkillParseMessages(text, boundary).reduce((n, m) => n + m.content.length, 0);
}

function measuredRates(db: Db): { charsPerToken: number; answerTokens: number } | null {
  const row = db
    .prepare(
      `SELECT COUNT(*) AS n, SUM(st.prompt_tokens) AS prompt, SUM(st.completion_tokens) AS completion,
         SUM(MIN(length(s.full_text), ?)) AS chars
       FROM skill_states st JOIN skills s ON s.id = st.skill_id
       WHERE st.prompt_tokens > 0 AND st.status IN ('parsed', 'edited', 'verified')`,
    )
    .get(MAX_SKILL_PROMPT_CHARS) as {
    n: number;
    prompt: number | null;
    completion: number | null;
    chars: number | null;
  };
  if (row.n < enoughHistory || !row.prompt || !row.chars) return null;
  const overhead = promptChars('');
  return {
    charsPerToken: (row.chars + row.n * overhead) / row.prompt,
    answerTokens: (row.completion ?? 0) / row.n,
  };
}

export function estimateParse(
  db: Db,
  settings: LlmEndpointSettings,
  req: ParseEstimateRequest,
): ParseEstimate {
  const rules = parseRules(req, settings.model, SKILL_PARSE_PROMPT_VERSION);
  const rates = measuredRates(db);
  const charsPerToken = rates?.charsPerToken ?? defaultCharsPerToken;
  const answerTokens = rates?.answerTokens ?? defaultAnswerTokens;
  const estimate: ParseEstimate = {
    toSend: 0,
    kept: 0,
    cached: 0,
    promptTokens: 0,
    completionTokens: 0,
    cost: 0,
    basis: rates ? 'library' : 'default',
  };
  for (const c of selectCandidates(db, rules.only, req.ids)) {
    const fate = rules.fate(c);
    if (fate === 'kept') estimate.kept++;
    else if (fate === 'cached') estimate.cached++;
    else {
      estimate.toSend++;
      estimate.promptTokens += Math.ceil(promptChars(c.fullText) / charsPerToken);
      estimate.completionTokens += Math.ceil(answerTokens);
    }
  }
  estimate.cost = estimateCost(settings, estimate.promptTokens, estimate.completionTokens);
  return estimate;
}
