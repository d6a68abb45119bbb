// Every number that tunes behaviour lives here, with its default; the UI shows them from this schema. The schema is
// built with the zod a caller hands in, so this module loads no zod: the core builds it at its first settings read
// (core/zod.ts), the browser UI and scripts through shared/settings.ts.
import type { z } from 'zod';
import { OFFLINE_ABSTAIN_BELOW, selectionPresets } from './presets';

type Zod = typeof z;

/** The embedder's query instruction for the recall (METHOD.md step 1). */
export const DEFAULT_RECALL_INSTRUCTION =
  'Given an agent task, retrieve the skill whose description best helps complete it';

/** The settings schema, built with the zod it is given (the browser UI's ES build, or the core's CommonJS one). */
export function buildSettingsSchema(z: Zod) {
  const modelSlot = z.object({
    /** A model folder (config.json, tokenizer, onnx/); empty = not installed. */
    path: z.string().default(''),
    dtype: z.enum(['auto', 'fp32', 'fp16', 'q8', 'int8', 'uint8', 'q4', 'q4f16', 'bnb4']).default('auto'),
    device: z.enum(['auto', 'cpu', 'cuda', 'dml', 'coreml']).default('auto'),
  });

  const remoteEndpoint = z.object({
    baseURL: z.string().default(''),
    model: z.string().default(''),
    timeoutMs: z.number().int().min(1000).max(600_000).default(60_000),
    maxRetries: z.number().int().min(0).max(10).default(3),
  });

  return z.object({
    engines: z
      .object({
        /** Which engine scores: the built-in lexical one needs no download. */
        embedder: z.enum(['lexical', 'onnx', 'remote']).default('lexical'),
        crossEncoder: z.enum(['lexical', 'onnx', 'remote']).default('lexical'),
      })
      .prefault({}),
    models: z
      .object({
        embedder: modelSlot.prefault({}),
        reranker: modelSlot.prefault({}),
        embedBatchSize: z.number().int().min(1).max(256).default(16),
        rerankBatchSize: z.number().int().min(1).max(64).default(4),
      })
      .prefault({}),
    remote: z
      .object({
        embeddings: remoteEndpoint.prefault({}),
        rerank: remoteEndpoint.prefault({}),
      })
      .prefault({}),
    selection: z
      .object({
        /** K: candidates the recall passes on (METHOD.md step 1). */
        recallK: z.number().int().min(1).max(500).default(30),
        /** k for the ranked variants. */
        rankedK: z.number().int().min(1).max(20).default(2),
        /** Token budget for the whole cross-encoder prompt; only the skill body is cut. */
        crossEncoderMaxTokens: z.number().int().min(128).max(8192).default(1024),
        /** Prompt budget of alignment pairs (two state sentences); relevance and stage fit use the one above. */
        crossEncoderAlignMaxTokens: z.number().int().min(64).max(8192).default(256),
        /** Body budget (characters) per candidate shown to the LLM selector. */
        llmSelectorBodyChars: z.number().int().min(0).max(20_000).default(600),
        recallInstruction: z.string().default(DEFAULT_RECALL_INSTRUCTION),
        /** Which engine scores each use of r: exact (cross-encoder), fast (embedder), mixed, offline (lexical). */
        preset: z.enum(selectionPresets).default('exact'),
        /**
         * Per preset: answer nothing ("no skill fits") when the best candidate's rho is below this; null: always
         * answer, as METHOD.md. The offline value was chosen on resources/no-fit-tasks.jsonl (docs/selection.md).
         */
        abstainBelow: z
          .object({
            exact: z.number().min(-50).max(50).nullable().default(null),
            fast: z.number().min(-50).max(50).nullable().default(null),
            mixed: z.number().min(-50).max(50).nullable().default(null),
            offline: z.number().min(-50).max(50).nullable().default(OFFLINE_ABSTAIN_BELOW),
          })
          .prefault({}),
        /** Embedder cosine as log-odds, r = scale * (cos - center) (docs/METHOD-notes.md); `model` = the model's own. */
        embedderCalibration: z
          .object({
            use: z.enum(['model', 'custom']).default('model'),
            scale: z.number().positive().max(1000).default(20),
            center: z.number().min(-1).max(1).default(0.4),
          })
          .prefault({}),
      })
      .prefault({}),
    llm: z
      .object({
        baseURL: z.string().default('http://127.0.0.1:11434/v1'),
        model: z.string().default(''),
        temperature: z.number().min(0).max(2).default(0),
        concurrency: z.number().int().min(1).max(64).default(4),
        timeoutMs: z.number().int().min(1000).max(600_000).default(60_000),
        maxRetries: z.number().int().min(0).max(10).default(4),
        /** Longest wait between retries, whatever Retry-After asks. */
        maxRetryDelayMs: z.number().int().min(0).max(600_000).default(60_000),
        /** Answers over this size are refused, never stored. */
        maxResponseBytes: z
          .number()
          .int()
          .min(1024)
          .default(2 * 1024 * 1024),
        /** max_tokens asked of the model per answer. */
        maxTokens: z.number().int().min(16).max(32_768).default(1024),
        /** Prices in currency units per million tokens, for the cost estimate. */
        promptPricePerMTok: z.number().min(0).default(0),
        completionPricePerMTok: z.number().min(0).default(0),
      })
      .prefault({}),
    import: z
      .object({
        /** The spec says a name must equal its folder (an error); a curator may keep such skills with a warning. */
        nameFolderMismatch: z.enum(['error', 'warning']).default('error'),
        /** The spec allows only lowercase letters, digits and single hyphens in a name; a curator may keep others with a warning. */
        nameFormat: z.enum(['error', 'warning']).default('error'),
        skillMdMaxBytes: z
          .number()
          .int()
          .min(1024)
          .default(1024 * 1024),
        packageFileMaxBytes: z
          .number()
          .int()
          .min(1024)
          .default(64 * 1024 * 1024),
        referenceTextMaxBytes: z
          .number()
          .int()
          .min(0)
          .default(256 * 1024),
        zipTotalMaxBytes: z
          .number()
          .int()
          .min(1024)
          .default(1024 * 1024 * 1024),
        /** The most a Git fetch downloads: isomorphic-git holds the whole pack in memory. */
        gitDownloadMaxBytes: z
          .number()
          .int()
          .min(1024)
          .default(1024 * 1024 * 1024),
        /** Uncompressed / compressed size above which a zip entry is treated as a bomb. */
        zipMaxRatio: z.number().min(1).default(200),
        zipMaxEntries: z.number().int().min(1).default(100_000),
        jsonlLineMaxBytes: z
          .number()
          .int()
          .min(1024)
          .default(2 * 1024 * 1024),
        /** Folders a folder import reads at most: links that reach the same folders many ways cannot make it endless. */
        folderMaxVisits: z.number().int().min(1).default(20_000),
        /** A file with another hard link outside the source (e.g. to /etc/passwd): reject its skill, or import with a warning. */
        hardlinkOutsideSource: z.enum(['error', 'warning']).default('error'),
      })
      .prefault({}),
    audit: z
      .object({
        /** install, export and MCP refuse skills with an unsuppressed finding at or above this. */
        gateSeverity: z.enum(['low', 'medium', 'high', 'critical', 'off']).default('critical'),
        /** Whose rules the spec lint applies. */
        specProfile: z.enum(['agentskills', 'claude-code', 'claude-api']).default('agentskills'),
      })
      .prefault({}),
    usage: z
      .object({
        /** Recorded MCP calls older than this are deleted; 0 records none. */
        retentionDays: z.number().int().min(0).max(3650).default(90),
      })
      .prefault({}),
    ui: z
      .object({
        theme: z.enum(['system', 'light', 'dark']).default('system'),
      })
      .prefault({}),
  });
}

export type Settings = z.infer<ReturnType<typeof buildSettingsSchema>>;
export type SettingsPatch = { [K in keyof Settings]?: Partial<Settings[K]> };
