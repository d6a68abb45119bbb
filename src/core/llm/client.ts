// The LLM client: one chat-completions call with our own timeout, retries, size limit and cancellation around the
// openai package (its own retries are off so that Retry-After, backoff and the attempt count are ours to control).
// The package loads at the first request, not with the core, so the host starts without it.
import type OpenAI from 'openai';
import { CuratorError } from '../../shared/errors';
import { boundedFetch } from './bounded-fetch';
import { classifyFailure, failureToError, timeoutFailure, type EndpointFailure } from './endpoint-errors';
import {
  silentLogger,
  systemClock,
  type ChatMessage,
  type Clock,
  type CompleteOptions,
  type LlmClient,
  type LlmCompletion,
  type Logger,
} from './ports';
import { retryDelayMs, sleep as realSleep } from './retry';
import type { ApiKeyProvider, LlmEndpointSettings } from './settings';

export interface LlmClientDeps {
  settings: LlmEndpointSettings;
  apiKey: ApiKeyProvider;
  logger?: Logger;
  clock?: Clock;
  /** For jitter; defaults to Math.random. */
  random?: () => number;
  /** Waits between attempts; defaults to a real, abortable timer. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The transport under the size limit; defaults to the global fetch. */
  fetch?: typeof globalThis.fetch;
}

export function createLlmClient(deps: LlmClientDeps): LlmClient {
  const { settings } = deps;
  const logger = deps.logger ?? silentLogger;
  const clock = deps.clock ?? systemClock;
  const random = deps.random ?? Math.random;
  const wait = deps.sleep ?? realSleep;
  let openaiClient: Promise<OpenAI> | undefined;
  const openaiOnce = () =>
    (openaiClient ??= import('openai').then(
      ({ default: OpenAI }) =>
        new OpenAI({
          baseURL: settings.baseURL,
          // The real key goes in per request (it may rotate); this one is never sent.
          apiKey: 'unused',
          organization: null,
          project: null,
          maxRetries: 0,
          // Our own per-attempt timer (below) fires first and also covers reading the body.
          timeout: settings.timeoutMs + 5_000,
          fetch: boundedFetch(settings.maxResponseBytes, deps.fetch),
          logLevel: 'off',
        }),
    ));
  const ctx = { baseURL: settings.baseURL, model: settings.model, timeoutMs: settings.timeoutMs };

  async function attempt(
    messages: ChatMessage[],
    options: CompleteOptions,
    key: string,
  ): Promise<Omit<LlmCompletion, 'attempts'>> {
    // Loading the package is not part of the attempt's time.
    const openai = await openaiOnce();
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, settings.timeoutMs);
    const onAbort = () => controller.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const response: unknown = await openai.chat.completions.create(
        {
          model: settings.model,
          messages,
          temperature: settings.temperature,
          max_tokens: options.maxTokens ?? settings.maxTokens,
        },
        {
          signal: controller.signal,
          headers: { Authorization: key ? `Bearer ${key}` : null },
          maxRetries: 0,
        },
      );
      return readCompletion(response, settings);
    } catch (error) {
      if (options.signal?.aborted) throw new CuratorError('CANCELLED', 'Cancelled.');
      if (timedOut) throw new AttemptFailure(timeoutFailure(ctx));
      if (error instanceof AttemptFailure) throw error;
      throw new AttemptFailure(classifyFailure(error, ctx));
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  return {
    settings,
    async complete(messages, options = {}) {
      for (let retry = 0; ; retry++) {
        if (options.signal?.aborted) throw new CuratorError('CANCELLED', 'Cancelled.');
        const key = await readKey(deps.apiKey);
        try {
          const result = await attempt(messages, options, key);
          // A model may echo the key (e.g. from a prompt-injected skill); nothing downstream may store or show it.
          return {
            ...result,
            text: redactSecret(result.text, key),
            model: redactSecret(result.model, key),
            attempts: retry + 1,
          };
        } catch (error) {
          if (!(error instanceof AttemptFailure)) throw error;
          const failure = redact(error.failure, key);
          if (!failure.retryable || retry >= settings.maxRetries) throw failureToError(failure, retry + 1);
          const delay = retryDelayMs({
            retry,
            maxDelayMs: settings.maxRetryDelayMs,
            retryAfter: failure.headers?.get('retry-after'),
            retryAfterMs: failure.headers?.get('retry-after-ms'),
            nowMs: clock().getTime(),
            random,
          });
          logger.warn('LLM request failed; retrying', {
            problem: failure.problem,
            status: failure.status,
            retry: retry + 1,
            delayMs: delay,
          });
          try {
            await wait(delay, options.signal);
          } catch {
            throw new CuratorError('CANCELLED', 'Cancelled.');
          }
        }
      }
    },
  };
}

async function readKey(provider: ApiKeyProvider): Promise<string> {
  try {
    return ((await provider()) ?? '').trim();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CuratorError('UNAUTHORIZED', `The API key could not be read (${reason}).`);
  }
}

class AttemptFailure extends Error {
  constructor(readonly failure: EndpointFailure) {
    super(failure.message);
  }
}

function readCompletion(response: unknown, settings: LlmEndpointSettings): Omit<LlmCompletion, 'attempts'> {
  const body = response as {
    choices?: { message?: { content?: unknown }; finish_reason?: unknown }[];
    usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
    model?: unknown;
  } | null;
  if (typeof body !== 'object' || body === null || !Array.isArray(body.choices)) {
    // Some gateways answer 200 with an error object; its message is the most useful thing to show.
    const said = (body as { error?: { message?: unknown } } | null)?.error?.message;
    const detail = typeof said === 'string' ? ` The server said: ${said.slice(0, 300)}` : '';
    throw new AttemptFailure({
      problem: 'not-openai',
      code: 'LLM_ERROR',
      retryable: false,
      message: `The server at ${settings.baseURL} answered, but not in the OpenAI chat-completions format (no "choices").${detail}`,
    });
  }
  const choice = body.choices[0];
  const content = choice?.message?.content;
  return {
    text: typeof content === 'string' ? content : '',
    usage: {
      promptTokens: count(body.usage?.prompt_tokens),
      completionTokens: count(body.usage?.completion_tokens),
    },
    model: typeof body.model === 'string' ? body.model : settings.model,
    finishReason: typeof choice?.finish_reason === 'string' ? choice.finish_reason : null,
  };
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : 0;
}

/** Servers sometimes echo (part of) the key in a 401 message; it must not reach a log or the UI. */
function redact(failure: EndpointFailure, key: string): EndpointFailure {
  const message = redactSecret(failure.message, key);
  return message === failure.message ? failure : { ...failure, message };
}

/** `text` with every occurrence of the key replaced by ***. */
export function redactSecret(text: string, key: string): string {
  if (key.length < 4 || !text.includes(key)) return text;
  return text.split(key).join('***');
}
