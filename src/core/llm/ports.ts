// What the LLM layer needs from its host (clock, logger) and what it offers to parsing jobs (LlmClient).
import type { LlmEndpointSettings } from './settings';

export type { Logger } from '../logger';
export { silentLogger } from '../logger';

/** The core's clock (CoreContext.clock). */
export type Clock = () => Date;

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface LlmCompletion {
  /** The assistant's text ('' when the model answered nothing). */
  text: string;
  usage: TokenUsage;
  /** Model id the server says answered (may differ from the one asked, e.g. a dated alias). */
  model: string;
  finishReason: string | null;
  /** 1 + retries used. */
  attempts: number;
}

export interface CompleteOptions {
  signal?: AbortSignal;
  maxTokens?: number;
}

export interface LlmClient {
  /** The settings it was made with (no key in them). */
  readonly settings: LlmEndpointSettings;
  /** Throws CuratorError: CANCELLED, TIMEOUT, ENDPOINT_UNREACHABLE, UNAUTHORIZED, NOT_FOUND, TOO_LARGE, LLM_ERROR. */
  complete(messages: ChatMessage[], options?: CompleteOptions): Promise<LlmCompletion>;
}

export const systemClock: Clock = () => new Date();
