// Settings in words for people: a label and a line of help per setting (by its path), and the unit a size or a
// duration is shown in (the stored value stays bytes or milliseconds).

interface Words {
  label: string;
  help?: string;
}

const words: Record<string, Words> = {
  'engines.embedder': {
    label: 'Recall engine',
    help: 'lexical works offline with no model; onnx uses the local embedding model; remote an endpoint.',
  },
  'engines.crossEncoder': {
    label: 'Scoring engine',
    help: 'What scores skills against tasks and states: lexical (offline), onnx (local reranker) or remote.',
  },
  'models.embedder.path': { label: 'Embedding model folder' },
  'models.reranker.path': { label: 'Reranker model folder' },
  'models.embedBatchSize': {
    label: 'Texts per embedding batch',
    help: 'Larger is faster on a GPU, uses more memory.',
  },
  'models.rerankBatchSize': {
    label: 'Pairs per reranker batch',
    help: 'Larger is faster on a GPU, uses more memory.',
  },
  'remote.embeddings.baseURL': { label: 'Embeddings endpoint address' },
  'remote.rerank.baseURL': { label: 'Rerank endpoint address' },
  'selection.recallK': {
    label: 'Candidates from recall (K)',
    help: 'How many skills the first, fast search passes on to scoring. More finds more, costs more.',
  },
  'selection.rankedK': {
    label: 'Skills per answer for ranked variants (k)',
    help: 'The baselines no-parse, dense and llm answer with their k best skills.',
  },
  'selection.crossEncoderMaxTokens': {
    label: 'Longest skill text scored (tokens)',
    help: 'A longer skill is cut here before the scorer reads it with the task.',
  },
  'selection.crossEncoderAlignMaxTokens': {
    label: 'Longest state pair scored (tokens)',
    help: 'The same cut for two states compared with each other (a skill’s state against the task’s).',
  },
  'selection.abstainBelow.exact': {
    label: 'No skill fits below (exact preset)',
    help: 'Answer no skill when the best candidate’s relevance ρ is below this. Empty: always answer a skill.',
  },
  'selection.abstainBelow.fast': {
    label: 'No skill fits below (fast preset)',
    help: 'Answer no skill when the best candidate’s relevance ρ is below this. Empty: always answer a skill.',
  },
  'selection.abstainBelow.mixed': {
    label: 'No skill fits below (mixed preset)',
    help: 'Answer no skill when the best candidate’s relevance ρ is below this. Empty: always answer a skill.',
  },
  'selection.abstainBelow.offline': {
    label: 'No skill fits below (offline preset)',
    help: 'Answer no skill when the best candidate’s relevance ρ is below this (−0.7 was chosen on tasks no skill fits). Empty: always answer a skill.',
  },
  'selection.llmSelectorBodyChars': {
    label: 'Skill text shown to the LLM selector (characters)',
    help: 'How much of each candidate’s body the llm baseline reads besides its name and description.',
  },
  'selection.recallInstruction': {
    label: 'Recall instruction',
    help: 'The instruction the embedding model reads with a task.',
  },
  'selection.preset': {
    label: 'Selection preset',
    help: 'exact: the reranker for every score; fast: the embedder; mixed: both; offline: no models.',
  },
  'selection.embedderCalibration.use': {
    label: 'Embedder calibration',
    help: 'How the fast preset turns the embedder’s cosine into a score: model uses the default for the embedder’s family; custom uses the scale and centre below.',
  },
  'selection.embedderCalibration.scale': {
    label: 'Calibration scale',
    help: 'With custom: score = scale × (cosine − centre); larger spreads the scores further apart.',
  },
  'selection.embedderCalibration.center': {
    label: 'Calibration centre',
    help: 'With custom: the cosine that counts as an even chance (score 0).',
  },
  'llm.baseURL': {
    label: 'Endpoint address',
    help: 'An OpenAI-compatible address, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 (Ollama).',
  },
  'llm.model': { label: 'Model', help: 'Type a name, or pick one the endpoint lists (below).' },
  'llm.temperature': { label: 'Temperature', help: '0 gives the same answer for the same skill.' },
  'llm.concurrency': { label: 'Requests at once' },
  'llm.timeoutMs': { label: 'Timeout per request' },
  'llm.maxRetries': { label: 'Retries after a failed request' },
  'llm.maxRetryDelayMs': { label: 'Longest wait between retries' },
  'llm.maxResponseBytes': { label: 'Largest answer accepted' },
  'llm.maxTokens': { label: 'Longest answer asked for (tokens)' },
  'llm.promptPricePerMTok': {
    label: 'Price per million prompt tokens',
    help: 'For cost estimates; 0 when free.',
  },
  'llm.completionPricePerMTok': { label: 'Price per million answer tokens' },
  'import.nameFolderMismatch': {
    label: 'Name differs from its folder',
    help: 'error rejects such a skill (as the spec says); warning imports it with a warning.',
  },
  'import.nameFormat': {
    label: 'Name breaks the spec’s format',
    help: 'Capitals, spaces or other characters than a-z, 0-9 and single hyphens. error rejects such a skill (as the spec says); warning imports it with a warning.',
  },
  'import.skillMdMaxBytes': { label: 'Maximum SKILL.md size' },
  'import.packageFileMaxBytes': { label: 'Maximum size of one packaged file' },
  'import.referenceTextMaxBytes': { label: 'Maximum reference text read per file' },
  'import.zipTotalMaxBytes': { label: 'Maximum unpacked size of a zip' },
  'import.gitDownloadMaxBytes': {
    label: 'Maximum download of a Git source',
    help: 'A fetch stops when it is over this, or at a file over the packaged-file maximum, before the file arrives.',
  },
  'import.zipMaxRatio': { label: 'Maximum zip compression ratio', help: 'Refuses zip bombs.' },
  'import.zipMaxEntries': { label: 'Maximum files in a zip' },
  'import.jsonlLineMaxBytes': { label: 'Maximum JSONL line size' },
  'import.folderMaxVisits': { label: 'Maximum folders visited per import' },
  'import.hardlinkOutsideSource': {
    label: 'File linked from outside the source',
    help: 'error rejects the skill; warning imports it with a warning.',
  },
  'audit.gateSeverity': {
    label: 'Refuse skills with findings from',
    help: 'install, export and the MCP server refuse a skill with an unsuppressed audit finding at or above this severity; off refuses none.',
  },
  'audit.specProfile': {
    label: 'Spec rules for',
    help: 'agentskills: the Agent Skills spec; claude-code: with its extra fields; claude-api: claude.ai and the Skills API.',
  },
  'usage.retentionDays': {
    label: 'Keep agent usage for (days)',
    help: 'What agents searched, selected and read over MCP (the Usage screen); older calls are deleted. 0 records nothing.',
  },
  'ui.theme': { label: 'Theme' },
};

export function wordsFor(path: string): Words | undefined {
  return words[path];
}

export interface Unit {
  name: string;
  factor: number;
}

const KiB = 1024;
const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/** Sizes in KiB/MiB/GiB by their default's magnitude, durations in seconds; other numbers as they are. */
export function unitFor(path: string, defaultValue: number | null | undefined): Unit | undefined {
  if (/Bytes$/.test(path)) {
    const d = defaultValue ?? MiB;
    return d >= GiB
      ? { name: 'GiB', factor: GiB }
      : d >= MiB
        ? { name: 'MiB', factor: MiB }
        : { name: 'KiB', factor: KiB };
  }
  if (/Ms$/.test(path)) return { name: 's', factor: 1000 };
  return undefined;
}

/** "1 KiB", "64 MiB", "60 s": a bound in words; sizes take whichever unit reads best for that bound. */
export function inUnit(value: number, unit: Unit): string {
  if (unit.name !== 's') {
    const best =
      value >= GiB
        ? unitOf('GiB')
        : value >= MiB
          ? unitOf('MiB')
          : value >= KiB
            ? unitOf('KiB')
            : unitOf('B');
    unit = best;
  }
  const n = value / unit.factor;
  return `${Number.isInteger(n) ? n : Number(n.toPrecision(3))} ${unit.name}`;
}

function unitOf(name: 'B' | 'KiB' | 'MiB' | 'GiB'): Unit {
  return { name, factor: { B: 1, KiB, MiB, GiB }[name] };
}
