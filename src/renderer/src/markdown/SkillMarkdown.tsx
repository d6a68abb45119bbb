// SKILL.md body as sanitised HTML (see sanitise.ts for what is removed).
import { useMemo } from 'react';
import { createSkillMarkdownRenderer } from './sanitise';

let render: ((markdown: string) => string) | null = null;

export function SkillMarkdown({ markdown }: { markdown: string }) {
  const html = useMemo(() => {
    render ??= createSkillMarkdownRenderer(window);
    return render(markdown);
  }, [markdown]);
  // The HTML comes only from the sanitiser above.
  return (
    <article className="markdown" data-testid="skill-markdown" dangerouslySetInnerHTML={{ __html: html }} />
  );
}
