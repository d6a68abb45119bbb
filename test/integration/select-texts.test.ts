// Every text that reaches a scorer, exactly (METHOD.md "Scorers"): a recording CrossEncoder and a recording Embedder
// run through the real pipeline (SQLite library, vector index, dense recall, runSelection), and every (a, b,
// instruction) they were asked is compared with the strings the method prescribes.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  CrossEncoder,
  CrossScore,
  CrossScoreOptions,
  EmbedOptions,
  Embedder,
  ScorePair,
} from '../../src/core/models/ports';
import {
  rerankerPrefix,
  rerankerPromptIds,
  rerankerSuffix,
} from '../../src/core/models/onnx/qwen3-reranker-template';
import { recallSkills } from '../../src/core/search/recall';
import { buildVectorIndex } from '../../src/core/search/vector-index';
import { crossEncoderScoreProvider, runSelection, type SelectionDeps } from '../../src/core/select/index';
import { skillDocument } from '../../src/core/select/documents';
import { importSource } from '../../src/core/skills/index';
import { tempLibrary, testJob, type TempLibrary } from '../fixtures/skills/library-fixture';

// The instruction texts are part of the method's inputs: a change needs a new version (and this test updated).
const RELEVANCE =
  'Given an agent task, judge whether the skill described by the Document helps to complete the task';
const ALIGN = 'Given a state of an agent task, judge whether the state described by the Document matches it';
const STAGE_FIT =
  'Given one stage of an agent task, judge whether the skill described by the Document carries out this stage';
const RECALL = 'Given an agent task, retrieve the skill whose description best helps complete it';

interface Asked {
  instruction: string;
  query: string;
  document: string;
  maxTokens: number | undefined;
}

/** A CrossEncoder that records every pair it is asked and answers r from a table (0 otherwise). */
class RecordingCrossEncoder implements CrossEncoder {
  readonly id = 'recording:cross';
  readonly engine = 'lexical' as const;
  readonly asked: Asked[] = [];
  constructor(
    private readonly table: Record<string, number>,
    /** Documents longer than this many characters come back as cut. */
    private readonly cutAbove = Number.POSITIVE_INFINITY,
  ) {}
  async score(pairs: ScorePair[], options: CrossScoreOptions): Promise<CrossScore[]> {
    return pairs.map((p) => {
      this.asked.push({ instruction: options.instruction, ...p, maxTokens: options.maxTokens });
      return { r: this.table[`${p.query}|${p.document}`] ?? 0, truncated: p.document.length > this.cutAbove };
    });
  }
}

/** An Embedder that records what it embeds; its vectors are a stable function of the text. */
class RecordingEmbedder implements Embedder {
  readonly id = 'recording:embed';
  readonly engine = 'onnx' as const;
  readonly dim = 8;
  readonly calls: { texts: string[]; role: string; instruction: string | undefined }[] = [];
  async embed(texts: string[], options: EmbedOptions): Promise<Float32Array[]> {
    this.calls.push({ texts, role: options.role, instruction: options.instruction });
    return texts.map((t) => {
      const v = new Float32Array(8).fill(0.1);
      for (let i = 0; i < t.length; i++) v[i % 8]! += t.charCodeAt(i) / 1000;
      const norm = Math.hypot(...v);
      return v.map((x) => x / norm);
    });
  }
}

const task = 'heat the soup and serve it';
const parse = {
  subtasks: ['Heat the soup.', 'Serve the soup.'],
  states: ['Cold soup.', 'Hot soup.', 'Soup served.'],
};
const skills = {
  'heat-food': {
    description: 'Heats food in a microwave.',
    body: '# Heat food\n\nPut the food in the microwave and run it for two minutes.\n',
    states: { precondition: 'Cold food is held.', completion: 'Hot food is held.' },
  },
  'serve-dish': {
    description: 'Serves a hot dish on a plate.',
    body: '# Serve\n\nPlace the dish on a plate.\n',
    states: { precondition: 'Hot food.', completion: 'Food is served.' },
  },
  'chop-food': { description: 'Cuts food into pieces.', body: '# Chop\n\nUse a knife.\n', states: null },
};
type Name = keyof typeof skills;
const names = Object.keys(skills) as Name[];
/** c_k exactly as METHOD.md writes it: `name | description | body`, the body as the SKILL.md has it after the front matter. */
const c = (name: Name): string => `${name} | ${skills[name].description} | ${skills[name].body}`;
const m = (name: Name): string => `${name} | ${skills[name].description}`;

let lib: TempLibrary;
let embedder: RecordingEmbedder;

beforeAll(async () => {
  lib = tempLibrary();
  const root = path.join(lib.dir, 'src');
  for (const name of names) {
    const s = skills[name];
    mkdirSync(path.join(root, name), { recursive: true });
    writeFileSync(
      path.join(root, name, 'SKILL.md'),
      `---\nname: ${name}\ndescription: ${s.description}\n---\n${s.body}`,
    );
  }
  const report = await importSource(lib.deps, { path: root }, testJob());
  expect(report.rejected).toEqual([]);
  for (const name of names) {
    const st = skills[name].states;
    if (!st) continue;
    lib.db
      .prepare(
        `INSERT INTO skill_states (skill_id, precondition, completion, status, created_at, updated_at)
         VALUES ((SELECT id FROM skills WHERE name = ?), ?, ?, 'verified', '2026-01-01', '2026-01-01')`,
      )
      .run(name, st.precondition, st.completion);
  }
  embedder = new RecordingEmbedder();
  await buildVectorIndex({ db: lib.db }, embedder, {
    signal: new AbortController().signal,
    report: () => {},
  });
});
afterAll(() => lib.close());

function deps(encoder: CrossEncoder, maxTokens = 512): SelectionDeps {
  return {
    db: lib.db,
    recall: async (q, K) =>
      (await recallSkills({ db: lib.db, embedder }, q, K)).candidates.map((h) => ({
        skillId: h.skillId,
        score: h.score,
      })),
    recallModel: embedder.id,
    scorer: crossEncoderScoreProvider(encoder, { maxTokens }),
    clock: lib.deps.clock,
  };
}

const sorted = (xs: Asked[]): string[] => xs.map((a) => `${a.instruction}\n${a.query}\n${a.document}`).sort();
const expected = (instruction: string, pairs: [string, string][]): string[] =>
  pairs.map(([q, d]) => `${instruction}\n${q}\n${d}`).sort();

describe('the texts that reach the scorers', () => {
  it('recall embeds m_k = `name | description` bare and the task as a query under the recall instruction', async () => {
    expect(embedder.calls.map((x) => [x.role, x.instruction])).toEqual([['document', undefined]]);
    expect([...embedder.calls[0]!.texts].sort()).toEqual(names.map(m).sort());
    embedder.calls.length = 0;
    const hits = await recallSkills({ db: lib.db, embedder }, task, 30);
    expect(hits.candidates).toHaveLength(3);
    expect(embedder.calls).toEqual([{ texts: [task], role: 'query', instruction: RECALL }]);
  });

  it('asks r(q, c_k), r(s_i, p_k), r(s_j, e_k) and r(tau, c_k) with exactly the method texts and instructions', async () => {
    // serve-dish's precondition matches s_1, so its edge is 1 -> 2, the others 0 -> 1: node 1 splits the task.
    const encoder = new RecordingCrossEncoder({ 'Hot soup.|Hot food.': 3 });
    const [o] = await runSelection(deps(encoder, 700), {
      task,
      parse,
      variants: ['full'],
      prune: false,
      store: false,
    });
    const trace = o!.trace;
    expect(trace.candidates.map((x) => x.name).sort()).toEqual([...names].sort());
    expect(encoder.asked.every((a) => a.maxTokens === 700)).toBe(true);

    expect(sorted(encoder.asked.filter((a) => a.instruction === RELEVANCE))).toEqual(
      expected(
        RELEVANCE,
        names.map((n) => [task, c(n)]),
      ),
    );
    // src over s_0..s_(n-2) for a precondition; tgt over s_1..s_(n-1) (unpruned); chop-food has no parse: p = None,
    // e = its description.
    expect(sorted(encoder.asked.filter((a) => a.instruction === ALIGN))).toEqual(
      expected(ALIGN, [
        ['Cold soup.', 'Cold food is held.'],
        ['Hot soup.', 'Cold food is held.'],
        ['Cold soup.', 'Hot food.'],
        ['Hot soup.', 'Hot food.'],
        ['Hot soup.', 'Hot food is held.'],
        ['Soup served.', 'Hot food is held.'],
        ['Hot soup.', 'Food is served.'],
        ['Soup served.', 'Food is served.'],
        ['Hot soup.', 'Cuts food into pieces.'],
        ['Soup served.', 'Cuts food into pieces.'],
      ]),
    );
    expect(trace.splitPoints).toEqual([1]);
    expect(sorted(encoder.asked.filter((a) => a.instruction === STAGE_FIT))).toEqual(
      expected(
        STAGE_FIT,
        ['Heat the soup.', 'Serve the soup.'].flatMap((tau) =>
          names.map((n): [string, string] => [tau, c(n)]),
        ),
      ),
    );
    expect(encoder.asked).toHaveLength(3 + 10 + 6);
    expect(trace.instructions).toEqual({
      align: 'align/1',
      relevance: 'relevance/1',
      'stage-fit': 'stage-fit/1',
    });
  });

  it('joins the sub-tasks of a stage in order into tau', async () => {
    const three = {
      subtasks: ['Find the pot.', 'Heat the soup.', 'Serve the soup.'],
      states: ['Start.', 'Pot found.', 'Hot soup.', 'Soup served.'],
    };
    const encoder = new RecordingCrossEncoder({});
    const [noGraph] = await runSelection(deps(encoder), {
      task,
      parse: three,
      variants: ['no-graph'],
      store: false,
    });
    expect(noGraph!.trace.stages.map((s) => s.tau)).toEqual(['Find the pot. Heat the soup. Serve the soup.']);
    expect(new Set(encoder.asked.filter((a) => a.instruction === STAGE_FIT).map((a) => a.query))).toEqual(
      new Set(['Find the pot. Heat the soup. Serve the soup.']),
    );
  });

  it('records in the trace which documents the scorer cut to its budget', async () => {
    const longest = Math.max(...names.map((n) => c(n).length));
    const encoder = new RecordingCrossEncoder({}, longest - 1);
    const [o] = await runSelection(deps(encoder), {
      task,
      parse,
      variants: ['no-parse'],
      store: false,
    });
    const cut = o!.trace.scores.filter((s) => s.truncated).map((s) => s.doc);
    const longName = names.find((n) => c(n).length === longest)!;
    const index = o!.trace.candidates.findIndex((x) => x.name === longName);
    expect(cut).toEqual([{ candidate: index }]);
  });
});

describe('the text the llm variant shows', () => {
  it('is the task and each recalled candidate in recall order: name, description, body cut to the budget', async () => {
    const prompts: string[] = [];
    const [o] = await runSelection(
      {
        ...deps(new RecordingCrossEncoder({})),
        llm: async (prompt) => {
          prompts.push(prompt);
          return '1. chop-food';
        },
      },
      { task, variants: ['llm'], k: 1, llmBodyChars: 21, store: false },
    );
    expect(prompts).toHaveLength(1);
    const prompt = prompts[0]!;
    expect(o!.trace.llm!.prompt).toBe(prompt);
    expect(prompt).toContain(`\nTask: ${task}\n`);
    // Bodies over 21 characters are cut at a word boundary near the budget and marked.
    const shown: Record<Name, string> = {
      'heat-food': '# Heat food\n\nPut the [...]',
      'serve-dish': '# Serve\n\nPlace the [...]',
      'chop-food': '# Chop\n\nUse a knife.\n',
    };
    const blocks = o!.trace.candidates.map(
      (c, i) =>
        `### Candidate ${i + 1}\nname: ${c.name}\ndescription: ${skills[c.name as Name].description}\n` +
        `<<<SKILL TEXT\n${shown[c.name as Name]}\nSKILL TEXT>>>`,
    );
    expect(prompt).toContain(`\n\n${blocks.join('\n')}\n\n`);
    expect(o!.trace.answer.map((a) => a.name)).toEqual(['chop-food']);
  });
});

describe('the cut to the token budget', () => {
  // One token per character, so the budget arithmetic is visible; the real reranker uses the same function.
  const encode = (text: string): number[] => [...text].map((ch) => ch.codePointAt(0)!);
  const decode = (ids: number[]): string => String.fromCodePoint(...ids);

  it('falls in the body of c_k: name and description survive, the body is cut', () => {
    const doc = skillDocument({
      name: 'heat-food',
      description: 'Heats food in a microwave.',
      body: 'Put the food in the microwave. '.repeat(20),
    });
    const head = `${rerankerPrefix}<Instruct>: ${STAGE_FIT}\n<Query>: Heat the soup.\n<Document>:`;
    const keep = ' heat-food | Heats food in a microwave. | Put the food'.length;
    const budget = head.length + keep + rerankerSuffix.length;
    const [p] = rerankerPromptIds(encode, STAGE_FIT, [{ query: 'Heat the soup.', document: doc }], budget);
    expect(p!.truncated).toBe(true);
    expect(decode(p!.ids)).toBe(
      `${head} heat-food | Heats food in a microwave. | Put the food${rerankerSuffix}`,
    );
    const [whole] = rerankerPromptIds(
      encode,
      STAGE_FIT,
      [{ query: 'Heat the soup.', document: doc }],
      100_000,
    );
    expect(whole!.truncated).toBe(false);
    expect(decode(whole!.ids)).toBe(`${head} ${doc}${rerankerSuffix}`);
  });
});
