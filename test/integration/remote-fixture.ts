// A model server on 127.0.0.1 for the remote-engine tests: OpenAI-style /v1/embeddings, Cohere-style and TEI-style
// /rerank, vLLM-style /score, answering from a deterministic engine unless a canned answer is queued for the path.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { hashTerms } from '../../src/core/models/lexical/hashing-embedder';

export interface Canned {
  status?: number;
  headers?: Record<string, string>;
  /** Sent as is when a string (so malformed JSON can be sent), else as JSON. */
  body?: unknown;
  /** Never answer: the client must time out. */
  hang?: boolean;
}

export interface ModelServer {
  url: string;
  requests: { path: string; body: Record<string, unknown> }[];
  queue(path: string, ...answers: Canned[]): void;
  close(): Promise<void>;
}

/** Share of the query's words found in the document, as a probability in (0.05, 0.95). */
export function fixtureProbability(query: string, doc: string): number {
  const q =
    query
      .split('<Query>: ')
      .pop()!
      .toLowerCase()
      .match(/[a-z0-9]+/g) ?? [];
  const d = new Set(
    doc
      .replace(/<\|im_end\|>[\s\S]*$/, '')
      .toLowerCase()
      .match(/[a-z0-9]+/g) ?? [],
  );
  const share = q.length ? q.filter((w) => d.has(w)).length / q.length : 0;
  return 0.05 + 0.9 * share;
}

function answer(path: string, body: Record<string, unknown>): unknown {
  if (path.endsWith('/embeddings')) {
    const input = body.input as string[];
    const dim = (body.dimensions as number | undefined) ?? 32;
    return {
      object: 'list',
      model: body.model,
      data: input.map((t, index) => ({
        object: 'embedding',
        index,
        embedding: Array.from(hashTerms(t, dim)),
      })),
      usage: { prompt_tokens: 1, total_tokens: 1 },
    };
  }
  if (path.endsWith('/score')) {
    const docs = body.text_2 as string[];
    return { data: docs.map((d, index) => ({ index, score: fixtureProbability(body.text_1 as string, d) })) };
  }
  if (Array.isArray(body.texts)) {
    return (body.texts as string[]).map((d, index) => ({
      index,
      score: fixtureProbability(body.query as string, d),
    }));
  }
  const docs = body.documents as string[];
  // Rerank servers answer best first: the client must put scores back by index.
  const results = docs.map((d, index) => ({
    index,
    relevance_score: fixtureProbability(body.query as string, d),
  }));
  return { results: results.sort((a, b) => b.relevance_score - a.relevance_score) };
}

export async function startModelServer(): Promise<ModelServer> {
  const queues = new Map<string, Canned[]>();
  const requests: ModelServer['requests'] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      const body = JSON.parse(raw || '{}') as Record<string, unknown>;
      requests.push({ path, body });
      const canned = queues.get(path)?.shift();
      if (canned?.hang) return;
      const status = canned?.status ?? 200;
      const payload =
        canned && 'body' in canned ? canned.body : status === 200 ? answer(path, body) : { error: 'canned' };
      res.writeHead(status, { 'content-type': 'application/json', ...canned?.headers });
      res.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    queue(path, ...answers) {
      queues.set(path, [...(queues.get(path) ?? []), ...answers]);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
