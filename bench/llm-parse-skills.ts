// Bench: the skill-parsing job over the 633 real skills against the loopback OpenAI server (no model: answers are
// canned), to show the job's own overhead, the prompt sizes real SKILL.md files produce, and the cache on a rerun.
// Run: npx tsx bench/llm-parse-skills.ts [concurrency]
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLlmClient } from '../src/core/llm/client';
import { parseSkills, type ParseJob } from '../src/core/llm/parse-skills';
import { MAX_SKILL_PROMPT_CHARS } from '../src/core/llm/prompts';
import { parseLlmSettings } from '../src/core/llm/settings';
import { silentLogger } from '../src/core/logger';
import { openDb } from '../src/core/store/db';
import { startOpenAiServer, userText } from '../test/fixtures/openai-server';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = path.resolve(repoRoot, '../shared/data/zjunlp-skills');
const concurrency = Number(process.argv[2] ?? 4);

function skillFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return skillFiles(full);
    return entry === 'SKILL.md' ? [full] : [];
  });
}

const tmp = mkdtempSync(path.join(tmpdir(), 'bench-llm-'));
const db = openDb(path.join(tmp, 'library.db'));
db.prepare(
  "INSERT INTO sources (id, kind, uri, label, created_at) VALUES (1, 'folder', ?, 'zjunlp', 'x')",
).run(dataDir);
const files = skillFiles(dataDir);
const insert = db.prepare(
  `INSERT INTO skills (name, description, front_matter, body_own, full_text_stored, source_id, rel_path, content_hash, created_at, updated_at)
   VALUES (?, '', '{}', '', pack_text(?), 1, ?, ?, 'x', 'x')`,
);
db.transaction(() => {
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const rel = path.relative(dataDir, path.dirname(file));
    insert.run(path.basename(path.dirname(file)), text, rel, createHash('sha256').update(text).digest('hex'));
  }
})();

const server = await startOpenAiServer({
  reply: () => ({
    content: 'Precondition_State: None\nCompletion_State: The task output exists.',
    delayMs: 5,
  }),
});
const llm = createLlmClient({
  settings: parseLlmSettings({ baseURL: server.baseURL, model: 'bench', concurrency }),
  apiKey: () => 'k',
});
const job = (): ParseJob => ({
  signal: new AbortController().signal,
  report: () => {},
  isItemDone: () => false,
  markItem: () => {},
  markedItems: () => [],
});
const deps = { db, llm, clock: () => new Date(), logger: silentLogger };

const t0 = performance.now();
const first = await parseSkills(deps, {}, job());
const t1 = performance.now();
const second = await parseSkills(deps, { only: 'all' }, job());
const t2 = performance.now();

const sizes = server.chatRequests().map((r) => userText(r).length);
const lengths = files.map((f) => readFileSync(f, 'utf8').length).sort((a, b) => a - b);
console.log(`skills: ${files.length}, concurrency ${concurrency}, server delay 5 ms per answer`);
console.log(
  `first run: parsed ${first.parsed}, failed ${first.failed}, ${((t1 - t0) / 1000).toFixed(2)} s, ${(first.parsed / ((t1 - t0) / 1000)).toFixed(0)} skills/s`,
);
console.log(
  `second run (only: all): cached ${second.cached}, sent ${server.chatRequests().length - first.parsed}, ${(t2 - t1).toFixed(0)} ms`,
);
console.log(
  `SKILL.md chars: median ${lengths[Math.floor(lengths.length / 2)]}, max ${lengths.at(-1)}; cut at ${MAX_SKILL_PROMPT_CHARS}: ${lengths.filter((n) => n > MAX_SKILL_PROMPT_CHARS).length}`,
);
console.log(`user message chars: max ${Math.max(...sizes)}`);
await server.close();
db.close();
rmSync(tmp, { recursive: true, force: true });
