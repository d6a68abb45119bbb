// "Test connection": one tiny chat request, and what is wrong (if anything) in words a curator can act on.
import { CuratorError } from '../../shared/errors';
import { boundedFetch } from './bounded-fetch';
import { createLlmClient } from './client';
import type { EndpointProblem } from './endpoint-errors';
import { systemClock, type Clock } from './ports';
import type { ApiKeyProvider, LlmEndpointSettings } from './settings';

export interface ConnectionReport {
  ok: boolean;
  /** Plain-words verdict: what works, or what is wrong and what to check. */
  message: string;
  problem?: EndpointProblem;
  /** Model the server says answered. */
  model?: string;
  latencyMs?: number;
  /** Models the server lists, when the one asked for was not found. */
  availableModels?: string[];
}

export interface TestConnectionDeps {
  clock?: Clock;
  fetch?: typeof globalThis.fetch;
}

export async function testConnection(
  settings: LlmEndpointSettings,
  apiKey: ApiKeyProvider,
  deps: TestConnectionDeps = {},
): Promise<ConnectionReport> {
  const clock = deps.clock ?? systemClock;
  const client = createLlmClient({
    settings: { ...settings, maxRetries: 0 },
    apiKey,
    clock,
    fetch: deps.fetch,
  });
  const started = clock().getTime();
  try {
    const answer = await client.complete([{ role: 'user', content: 'Reply with the single word OK.' }], {
      maxTokens: 16,
    });
    const latencyMs = clock().getTime() - started;
    return {
      ok: true,
      model: answer.model,
      latencyMs,
      message: `Connected: ${answer.model} answered in ${(latencyMs / 1000).toFixed(1)} s.`,
    };
  } catch (error) {
    if (!(error instanceof CuratorError)) throw error;
    const problem = (error.details as { problem?: EndpointProblem } | undefined)?.problem ?? 'other';
    const report: ConnectionReport = { ok: false, problem, message: error.message };
    if (problem === 'model-not-found') {
      const models = await listModels(settings, apiKey, deps.fetch).catch(() => undefined);
      if (models && models.length > 0) {
        report.availableModels = models;
        report.message += ` The endpoint offers: ${models.slice(0, 12).join(', ')}${models.length > 12 ? ', …' : ''}.`;
      }
    }
    return report;
  }
}

export async function listModels(
  settings: LlmEndpointSettings,
  apiKey: ApiKeyProvider,
  inner?: typeof globalThis.fetch,
): Promise<string[]> {
  const key = (await apiKey()) ?? '';
  const fetch = boundedFetch(settings.maxResponseBytes, inner);
  const response = await fetch(`${settings.baseURL.replace(/\/+$/, '')}/models`, {
    headers: key ? { Authorization: `Bearer ${key}` } : {},
    signal: AbortSignal.timeout(settings.timeoutMs),
  });
  if (!response.ok) return [];
  const body = (await response.json()) as { data?: { id?: unknown }[] };
  return (body.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string');
}
