// Settings of one OpenAI-compatible endpoint. The API key is not part of them: the host hands the core a key
// provider, so the key never sits in the settings table, a log line or an error message.
import type { z } from 'zod';
import { CuratorError } from '../../shared/errors';
import { schema, type Zod } from '../zod';

function buildLlmEndpointSettingsSchema(z: Zod) {
  return z.object({
    /** e.g. https://api.openai.com/v1, http://127.0.0.1:11434/v1 (Ollama), http://localhost:8000/v1 (vLLM). */
    baseURL: z.url({ protocol: /^https?$/, error: 'the base URL must be an http:// or https:// address' }),
    model: z.string().trim().min(1, { error: 'no model is chosen' }),
    temperature: z.number().min(0).max(2).default(0),
    /** Requests in flight at once during a parsing job. */
    concurrency: z.number().int().min(1).max(64).default(4),
    /** Per attempt, from sending the request to the last byte of the answer. */
    timeoutMs: z.number().int().min(100).max(600_000).default(60_000),
    /** Retries after the first attempt, on 429, 5xx, timeouts and dropped connections. */
    maxRetries: z.number().int().min(0).max(10).default(3),
    /** Longest wait between two attempts, whatever Retry-After asks for. */
    maxRetryDelayMs: z.number().int().min(0).max(600_000).default(60_000),
    /** Answers larger than this are refused, never stored. */
    maxResponseBytes: z
      .number()
      .int()
      .min(1024)
      .max(64 * 1024 * 1024)
      .default(2 * 1024 * 1024),
    /** Upper bound on the completion length asked of the model. */
    maxTokens: z.number().int().min(16).max(32_768).default(1024),
    /** US dollars per million tokens, for the cost estimate; 0 when unknown. */
    promptPricePerMTok: z.number().min(0).default(0),
    completionPricePerMTok: z.number().min(0).default(0),
  });
}

/** Built at its first use, not at import. */
export const llmEndpointSettingsSchema = schema(buildLlmEndpointSettingsSchema);

export type LlmEndpointSettings = z.output<ReturnType<typeof buildLlmEndpointSettingsSchema>>;
export type LlmEndpointSettingsInput = z.input<ReturnType<typeof buildLlmEndpointSettingsSchema>>;

/** Returns the key, or undefined/'' for endpoints without one (local servers). Called once per request. */
export type ApiKeyProvider = () => string | undefined | Promise<string | undefined>;

/** Validates and fills defaults; a bad field is an INVALID_ARGUMENT naming the field. */
export function parseLlmSettings(input: unknown): LlmEndpointSettings {
  const result = llmEndpointSettingsSchema().safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => `${i.path.join('.') || 'settings'}: ${i.message}`);
  throw new CuratorError('INVALID_ARGUMENT', `LLM endpoint settings are invalid (${issues.join('; ')})`, {
    issues,
    // Shown in place of "check the values you entered": a re-parse never asked for any.
    hint: 'Set the LLM endpoint’s address and model in Settings → LLM endpoint (CLI: settings set llm.baseURL=… llm.model=…) and test it there; or write the states by hand with Edit.',
  });
}

/** Dollars for a token count at the settings' prices. */
export function estimateCost(
  settings: LlmEndpointSettings,
  promptTokens: number,
  completionTokens: number,
): number {
  return (
    (promptTokens / 1e6) * settings.promptPricePerMTok +
    (completionTokens / 1e6) * settings.completionPricePerMTok
  );
}
