// Runs the line rules over one text file of a skill: each logical line and each of its views (text-views.ts), with
// the place a match sits in (a document's prose, its code, or a script) setting its severity. Text a reader of the
// rendered document never sees (HTML comments, hidden markup) is scanned as prose and reported as hidden.
import type { AuditFinding, Severity } from '../../shared/api/audit';
import { severityRank } from '../../shared/api/audit';
import { fileKindOf, type FileKind, type LinePlace, type LineRule } from './line-rule';
import { lineViews, logicalLines, stringVariables, type LogicalLine } from './text-views';

const MAX_EXCERPT = 200;

export const excerptOf = (text: string): string => {
  const t = text.trim().replace(/\s+/g, ' ');
  return t.length > MAX_EXCERPT ? `${t.slice(0, MAX_EXCERPT - 1)}…` : t;
};

interface Span {
  start: number;
  end: number;
}

/** Inline code and double-quoted text in a prose line: a match inside is quoted, not said. */
function quotedSpans(text: string): Span[] {
  const spans: Span[] = [];
  for (const m of text.matchAll(/`[^`]+`|"[^"\n]{3,}"|“[^”\n]{3,}”/g))
    spans.push({ start: m.index, end: m.index + m[0].length });
  return spans;
}

function placeOf(kind: FileKind, inFence: boolean, spans: Span[], at: number | null): LinePlace {
  if (kind !== 'doc') return 'script';
  if (inFence) return 'doc-code';
  if (at !== null && spans.some((s) => at >= s.start && at < s.end)) return 'inline';
  return 'prose';
}

const escaped = (k: string) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const keywordRes = new WeakMap<LineRule, RegExp>();
const anyKeywordRes = new WeakMap<readonly LineRule[], RegExp>();

/** A rule's keywords as one expression over a lower-cased line, made once. */
function keywordRe(rule: LineRule): RegExp {
  let re = keywordRes.get(rule);
  if (!re) keywordRes.set(rule, (re = new RegExp(rule.keywords.map(escaped).join('|'))));
  return re;
}

/**
 * The keywords as one expression with their common prefixes shared ("c(?:url|h(?:mod|own))"): a backtracking engine
 * then tries a few branches at each position instead of every keyword.
 */
export function trieSource(words: readonly string[]): string {
  const unique = [...new Set(words)].filter((w) => w !== '');
  if (unique.length === 0) return '(?!)';
  const byFirst = new Map<string, string[]>();
  for (const w of unique) {
    if (w === '') continue;
    const rest = byFirst.get(w[0]!) ?? [];
    rest.push(w.slice(1));
    byFirst.set(w[0]!, rest);
  }
  const branches: string[] = [];
  for (const [first, rests] of byFirst) {
    const head = escaped(first);
    if (rests.length === 1) branches.push(head + escaped(rests[0]!));
    else {
      const shorter = rests.includes('');
      const longer = rests.filter((r) => r !== '');
      // A keyword that is a prefix of another: the shorter one already matches, so the longer is not needed.
      branches.push(shorter ? head : `${head}(?:${trieSource(longer)})`);
    }
  }
  return branches.length === 1 ? branches[0]! : branches.join('|');
}

/** Every keyword of a rule set: a line with none of them is skipped by every rule at once. */
function anyKeywordRe(rules: readonly LineRule[]): RegExp {
  let re = anyKeywordRes.get(rules);
  if (!re) anyKeywordRes.set(rules, (re = new RegExp(trieSource(rules.flatMap((r) => r.keywords)))));
  return re;
}

interface Match {
  rule: LineRule;
  severity: Severity;
  seenAfter: string;
}

function matchLine(
  rules: readonly LineRule[],
  kind: FileKind,
  line: LogicalLine,
  vars: Map<string, string>,
  inFence: boolean,
  quoted = false,
): Match[] {
  const views = lineViews(line, vars);
  const hidden = views.length > 1;
  const any = anyKeywordRe(rules);
  if (!views.some((v) => any.test(v.text.toLowerCase()))) return [];
  const lower = line.text.toLowerCase();
  const spans = quoted
    ? [{ start: 0, end: line.text.length }]
    : kind === 'doc' && !inFence
      ? quotedSpans(line.text)
      : [];
  const out: Match[] = [];
  for (const rule of rules) {
    if (rule.kinds && !rule.kinds.includes(kind)) continue;
    // The prefilter reads the raw line only when nothing is hidden in it.
    const keys = keywordRe(rule);
    if (!hidden && !keys.test(lower)) continue;
    for (const view of views) {
      if (!keys.test(view.text.toLowerCase())) continue;
      let at: number | null = null;
      for (const p of rule.patterns) {
        const m = p.exec(view.text);
        if (m) {
          at = m.index;
          break;
        }
      }
      if (at === null) continue;
      if (rule.unless?.some((u) => u.test(view.text))) continue;
      // A match in a decoded or rebuilt view has no position in the raw line: it counts where the line sits.
      const place = placeOf(kind, inFence, view.seenAfter ? [] : spans, view.seenAfter ? null : at);
      const severity = rule.severity[place] ?? (place === 'inline' ? rule.severity['doc-code'] : undefined);
      if (!severity) continue;
      out.push({ rule, severity, seenAfter: view.seenAfter });
      break;
    }
  }
  return out;
}

const fence = /^\s{0,3}(```|~~~)/;
const dataFence = /^\s{0,3}(?:```|~~~)\s*(?:text|txt|plain|plaintext|log|logs|output)\s*$/i;

/** HTML comments and elements styled to be invisible, with the line each starts on. */
export function hiddenSegments(text: string): { line: number; text: string; how: string }[] {
  const out: { line: number; text: string; how: string }[] = [];
  const lineAt = (index: number) => text.slice(0, index).split('\n').length;
  for (const m of text.matchAll(/<!--([\s\S]*?)-->/g))
    out.push({ line: lineAt(m.index), text: m[1]!, how: 'inside an HTML comment, hidden when rendered' });
  const hiddenStyle =
    /<(\w+)[^>]*style\s*=\s*["'][^"']*(display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0|opacity\s*:\s*0(?![.\d])|color\s*:\s*(#fff(fff)?|white)\b[^"']*background(-color)?\s*:\s*(#fff(fff)?|white)\b)[^"']*["'][^>]*>(?<inner>[\s\S]*?)<\/\1>/gi;
  for (const m of text.matchAll(hiddenStyle))
    out.push({ line: lineAt(m.index), text: m.groups!.inner!, how: 'in markup styled to be invisible' });
  for (const m of text.matchAll(/<(\w+)[^>]*\shidden(\s|>|=)[^>]*>([\s\S]*?)<\/\1>/gi))
    out.push({ line: lineAt(m.index), text: m[3]!, how: 'in an element marked hidden' });
  return out;
}

export function scanTextFile(
  file: string,
  text: string,
  rules: readonly LineRule[],
): { findings: AuditFinding[]; kind: FileKind } {
  const kind = fileKindOf(file, text);
  const vars = kind === 'doc' ? new Map<string, string>() : stringVariables(text);
  const findings: AuditFinding[] = [];
  const physical = text.split(/\r\n|\r|\n/);
  let inFence = false;
  let dataBlock = false;
  const fencedLines = new Set<number>();
  for (const line of logicalLines(text, kind === 'ps1')) {
    if (kind === 'doc' && fence.test(line.text)) {
      if (!inFence) dataBlock = dataFence.test(line.text);
      inFence = !inFence;
      continue;
    }
    if (inFence) for (let l = line.line; l < line.line + line.joined; l++) fencedLines.add(l);
    // An indented block in a document is code, as a fenced one is; a block marked as text, a log or output is shown,
    // not run: a quotation, as inline code is.
    const quoted = inFence && dataBlock;
    const code = (inFence && !dataBlock) || (kind === 'doc' && !inFence && /^( {4,}|\t)\S/.test(line.text));
    for (const m of matchLine(rules, kind, line, vars, code, quoted))
      findings.push({
        ruleId: m.rule.id,
        category: m.rule.category,
        severity: m.severity,
        file,
        line: line.line,
        excerpt: excerptOf(physical[line.line - 1] ?? line.text),
        why: m.rule.why,
        ...(m.seenAfter ? { seenAfter: m.seenAfter } : {}),
      });
  }
  if (kind === 'doc')
    for (const seg of hiddenSegments(text)) {
      // A comment shown inside a code block is visible, an example rather than hidden text.
      if (fencedLines.has(seg.line)) continue;
      const seen = new Set<string>();
      for (const [i, segLine] of seg.text.split('\n').entries())
        for (const m of matchLine(
          rules,
          'doc',
          { line: seg.line + i, text: segLine, joined: 1 },
          vars,
          false,
        )) {
          if (seen.has(m.rule.id)) continue;
          seen.add(m.rule.id);
          findings.push({
            ruleId: 'SC-PI-HIDDEN-TEXT',
            category: 'prompt-injection',
            severity: severityRank(m.severity) >= severityRank('low') ? 'high' : 'medium',
            file,
            line: seg.line + i,
            excerpt: excerptOf(segLine),
            why: `Text a reader never sees (${seg.how}) ${m.rule.title.toLowerCase()}: hidden instructions are written for the agent alone; remove the skill or the hidden text.`,
            seenAfter: seg.how,
          });
        }
    }
  return { findings, kind };
}
