// What a curator can do about a failed LLM request, by the endpoint problem the core names in an error's details
// (core/llm/endpoint-errors.ts): shown beside a failed job and a skill's failed parse attempt.

const hints: Record<string, string> = {
  'server-error': 'The endpoint failed; retry later.',
  'rate-limited': 'The endpoint is limiting requests; wait a little, then retry.',
  timeout: 'The endpoint took too long; retry later, or raise the timeout in Settings.',
  dns: 'Check the endpoint address in Settings.',
  refused: 'Check that the LLM server is running and the address in Settings is right, then retry.',
  'connection-lost': 'The connection dropped; retry, and check the endpoint if it keeps happening.',
  'bad-port': 'Serve the endpoint on another port, and change the address in Settings.',
  tls: 'Check the certificate, or use http:// for a local server, in Settings.',
  unauthorized: 'Check the API key in Settings.',
  forbidden: 'The API key may not use this model; check the key and the model in Settings.',
  'model-not-found': 'Choose a model the endpoint offers in Settings.',
  'not-found': 'Check the base URL in Settings (it usually ends in /v1).',
  'not-openai': 'The address does not answer like an OpenAI-compatible endpoint; check it in Settings.',
  'too-large': 'The request or answer was too large; edit the states by hand or raise the limit in Settings.',
  'bad-request': 'The endpoint refused this request; check the model settings, or edit the states by hand.',
};

export function endpointHint(problem: unknown): string | undefined {
  return typeof problem === 'string' ? hints[problem] : undefined;
}

/** The endpoint problem named in an error's details, if any. */
export function problemOf(details: unknown): string | undefined {
  const problem = (details as { problem?: unknown } | null | undefined)?.problem;
  return typeof problem === 'string' ? problem : undefined;
}
