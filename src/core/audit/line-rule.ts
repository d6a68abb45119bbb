// What a line rule is: patterns over one logical line of a file, where in a file they apply, and how severe a match
// is there. Keywords are a cheap prefilter: a rule is only tried on a line that holds one of them (lower-cased).
import type { AuditCategory, Severity } from '../../shared/api/audit';

/** A file as the rules see it: prose an agent reads, or code a shell or interpreter runs. */
export type FileKind = 'doc' | 'sh' | 'py' | 'js' | 'ps1' | 'text';

/**
 * Where a match sits: prose of a document, inline code or a quotation in that prose (a mention, mostly), a code block
 * of a document (what an agent runs), or a script. A rule without an `inline` severity counts inline as doc-code.
 */
export type LinePlace = 'prose' | 'inline' | 'doc-code' | 'script';

export interface LineRule {
  id: string;
  category: AuditCategory;
  title: string;
  why: string;
  keywords: readonly string[];
  patterns: readonly RegExp[];
  /** A line matching one of these is not a finding of this rule (a documented safe form). */
  unless?: readonly RegExp[];
  /** The severity per place; a place left out is not checked. */
  severity: Partial<Record<LinePlace, Severity>>;
  /** Only these kinds of file (default: all). */
  kinds?: readonly FileKind[];
}

export function fileKindOf(file: string, text: string): FileKind {
  const ext = /\.([A-Za-z0-9]+)$/.exec(file)?.[1]?.toLowerCase() ?? '';
  if (['md', 'markdown', 'mdx', 'txt', 'rst'].includes(ext)) return 'doc';
  if (['sh', 'bash', 'zsh', 'ksh', 'command'].includes(ext)) return 'sh';
  if (['py', 'pyw'].includes(ext)) return 'py';
  if (['js', 'mjs', 'cjs', 'ts', 'mts', 'cts'].includes(ext)) return 'js';
  if (['ps1', 'psm1', 'psd1'].includes(ext)) return 'ps1';
  const shebang = /^#!.*\b(\w+)\s*$/.exec(text.slice(0, 120).split('\n')[0] ?? '')?.[1];
  if (shebang && /^(ba|z|k|da)?sh$/.test(shebang)) return 'sh';
  if (shebang && /^python/.test(shebang)) return 'py';
  if (shebang === 'node') return 'js';
  return 'text';
}
