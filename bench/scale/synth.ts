// Synthesises a library of n skills from the zjunlp collection: each zjunlp skill copied under a new name with a
// lightly varied description and body, written once as JSONL and once as a folder tree into a temporary folder
// (kept between runs under os.tmpdir(), never in the repository).
import { createWriteStream, existsSync, promises as fsp, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';

export interface SynthLibrary {
  n: number;
  jsonl: string;
  folder: string;
  /** Bytes of SKILL.md text in the library (what the library file is compared with). */
  textBytes: number;
}

interface Base {
  name: string;
  frontMatter: Record<string, unknown>;
  body: string;
}

const variants = ['quickly', 'carefully', 'in bulk', 'step by step', 'for a team', 'offline', 'on a laptop'];

async function skillFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fsp.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await skillFiles(p)));
    else if (e.name === 'SKILL.md') out.push(p);
  }
  return out;
}

export async function loadBases(zjunlp: string): Promise<Base[]> {
  const bases: Base[] = [];
  for (const file of (await skillFiles(zjunlp)).sort()) {
    const text = readFileSync(file, 'utf8');
    const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
    if (!m) continue;
    let fm: unknown;
    try {
      fm = parse(m[1]!);
    } catch {
      continue;
    }
    const data = fm as Record<string, unknown>;
    if (typeof data?.name !== 'string' || typeof data.description !== 'string') continue;
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(data.name)) continue;
    bases.push({ name: data.name.slice(0, 50).replace(/-$/, ''), frontMatter: data, body: m[2]! });
  }
  return bases;
}

/** Copy `i` of the collection: the base skill renamed, with a varied description and one added body line. */
function variant(
  base: Base,
  i: number,
  copy: number,
): { frontMatter: Record<string, unknown>; body: string } {
  if (copy === 0) return { frontMatter: base.frontMatter, body: base.body };
  const word = variants[i % variants.length]!;
  return {
    frontMatter: {
      ...base.frontMatter,
      name: `${base.name}-v${copy}`,
      description: `${String(base.frontMatter.description)} (${word}, variant ${copy})`,
    },
    body: `${base.body}\n\nVariant ${copy}: use this ${word}.\n`,
  };
}

export async function synthesise(zjunlp: string, n: number, root?: string): Promise<SynthLibrary> {
  const dir = root ?? path.join(os.tmpdir(), 'skill-curator-scale', String(n));
  const jsonl = path.join(dir, 'library.jsonl');
  const folder = path.join(dir, 'tree');
  const done = path.join(dir, 'done.json');
  if (existsSync(done)) return JSON.parse(readFileSync(done, 'utf8')) as SynthLibrary;
  await fsp.rm(dir, { recursive: true, force: true });
  await fsp.mkdir(folder, { recursive: true });
  const bases = await loadBases(zjunlp);
  const out = createWriteStream(jsonl);
  let textBytes = 0;
  const pending: Promise<void>[] = [];
  for (let i = 0; i < n; i++) {
    const base = bases[i % bases.length]!;
    const { frontMatter, body } = variant(base, i, Math.floor(i / bases.length));
    const name = frontMatter.name as string;
    const skillMd = `---\n${stringify(frontMatter)}---\n\n${body}`;
    textBytes += Buffer.byteLength(skillMd);
    if (!out.write(`${JSON.stringify({ ...frontMatter, body })}\n`))
      await new Promise<void>((r) => out.once('drain', () => r()));
    const skillDir = path.join(folder, `b${i % 64}`, name);
    pending.push(
      fsp
        .mkdir(skillDir, { recursive: true })
        .then(() => fsp.writeFile(path.join(skillDir, 'SKILL.md'), skillMd)),
    );
    if (pending.length >= 64) await Promise.all(pending.splice(0));
  }
  await Promise.all(pending);
  await new Promise<void>((r) => out.end(() => r()));
  const lib: SynthLibrary = { n, jsonl, folder, textBytes };
  writeFileSync(done, JSON.stringify(lib));
  return lib;
}
