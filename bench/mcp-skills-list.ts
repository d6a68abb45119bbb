// skills/list (SEP-2640) over a large library (issue 24): a library of n skills synthesised from the zjunlp
// collection, listed whole, page by page, over MCP (the real server, SDK client, in-memory transport), beside the same
// pages built by the catalog directly and the library's own list (library.list, 100 a page) in the same run. Prints
// the whole listing's seconds and each page's median and p95 per path, and the ratios to library.list.
// Run: node --import tsx bench/mcp-skills-list.ts [--n 68000] [--json]
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { z } from 'zod';
import { createCore } from '../src/core';
import { allowedSkills } from '../src/mcp/allowed-skills';
import { createMcpContext } from '../src/mcp/mcp-context';
import { libraryProfiles } from '../src/mcp/profile-source';
import { createCuratorMcpServer } from '../src/mcp/server';
import { skillCatalog } from '../src/mcp/skill-catalog';
import { median } from './median';
import { synthesise } from './scale/synth';

const { values: args } = parseArgs({
  options: { n: { type: 'string', default: '68000' }, json: { type: 'boolean', default: false } },
});
const repoRoot = path.resolve(import.meta.dirname, '..');
const zjunlp = path.resolve(repoRoot, '../shared/data/zjunlp-skills/skills');
const p95 = (xs: number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;

async function timedPages(
  next: (cursor: unknown) => Promise<unknown>,
): Promise<{ total: number; pages: number[] }> {
  const pages: number[] = [];
  const start = performance.now();
  let cursor: unknown = undefined;
  do {
    const t = performance.now();
    cursor = await next(cursor);
    pages.push(performance.now() - t);
  } while (cursor !== null && cursor !== undefined);
  return { total: (performance.now() - start) / 1000, pages };
}

const library = await synthesise(zjunlp, Number(args.n));
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-skills-list-'));
const core = createCore({ dataDir, resourcesDir: path.join(repoRoot, 'resources') });
try {
  const job = await core['library.import']({ path: library.jsonl });
  const done = await core['jobs.wait']({ id: job.id });
  if (done.status !== 'done') throw new Error(`import ${done.status}`);
  const mcp = await createMcpContext({
    core,
    rule: { kind: 'all' },
    profiles: libraryProfiles(core.context),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createCuratorMcpServer(mcp).connect(serverSide);
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(clientSide);
  const result = z.object({ skills: z.array(z.unknown()), nextCursor: z.string().optional() }).passthrough();
  let listed = 0;
  const overMcp = await timedPages(async (cursor) => {
    const page = await client.request({ method: 'skills/list', params: cursor ? { cursor } : {} }, result);
    listed += page.skills.length;
    return page.nextCursor;
  });
  const catalog = skillCatalog(core, allowedSkills({ kind: 'all' }, libraryProfiles(core.context)));
  const direct = await timedPages(async (offset) => (await catalog.page((offset as number) ?? 0, 100)).next);
  const listOnly = await timedPages(async (offset) => {
    const o = (offset as number) ?? 0;
    const page = await core['library.list']({ limit: 100, offset: o });
    return o + page.items.length < page.total ? o + page.items.length : null;
  });
  const rows = {
    'skills/list over MCP': overMcp,
    'catalog pages, direct': direct,
    'library.list pages': listOnly,
  };
  const figures = Object.fromEntries(
    Object.entries(rows).map(([k, r]) => [
      k,
      {
        seconds: r.total,
        pages: r.pages.length,
        pageMedianMs: median(r.pages),
        pageP95Ms: p95(r.pages),
        ratioToList: r.total / listOnly.total,
      },
    ]),
  );
  if (args.json)
    console.log(
      JSON.stringify({
        n: library.n,
        held: (await core['library.list']({ limit: 1 })).total,
        listed,
        figures,
      }),
    );
  else {
    console.log(
      `${library.n} skills synthesised, ${(await core['library.list']({ limit: 1 })).total} in the library; skills/list gave ${listed} entries`,
    );
    for (const [k, f] of Object.entries(figures))
      console.log(
        `${k.padEnd(22)} ${f.seconds.toFixed(2)} s for ${f.pages} pages; page median ${f.pageMedianMs.toFixed(1)} ms, p95 ${f.pageP95Ms.toFixed(1)} ms; ${f.ratioToList.toFixed(2)}x library.list`,
      );
  }
  await client.close();
} finally {
  await core.close();
  rmSync(dataDir, { recursive: true, force: true });
}
