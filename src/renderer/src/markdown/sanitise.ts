// Renders untrusted SKILL.md text to HTML that cannot run script or load anything remote: marked, then DOMPurify.
import createDOMPurify from 'dompurify';
import { Marked } from 'marked';

type WindowLike = Parameters<typeof createDOMPurify>[0];

const forbiddenTags = [
  'style',
  'form',
  'input',
  'button',
  'textarea',
  'select',
  'iframe',
  'frame',
  'object',
  'embed',
  'svg',
  'math',
  'video',
  'audio',
  'source',
  'track',
  'picture',
  'link',
  'meta',
  'base',
];

/** Only inline data: images survive; a remote or relative image would be a request the skill author controls. */
function isInlineImage(src: string): boolean {
  return /^data:image\/(png|gif|jpeg|webp);base64,/i.test(src.trim());
}

export function createSkillMarkdownRenderer(window: WindowLike): (markdown: string) => string {
  const purifier = createDOMPurify(window);
  purifier.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'IMG') {
      const src = node.getAttribute('src') ?? '';
      node.removeAttribute('srcset');
      if (!isInlineImage(src)) {
        node.removeAttribute('src');
        node.setAttribute('data-blocked-src', src.slice(0, 200));
        node.setAttribute('alt', `[image not loaded: ${node.getAttribute('alt') || 'remote image'}]`);
      }
    }
    if (node.nodeName === 'A') {
      const href = node.getAttribute('href') ?? '';
      if (href && !/^(https?:|mailto:|#)/i.test(href.trim())) node.removeAttribute('href');
      node.setAttribute('rel', 'noopener noreferrer nofollow');
      node.setAttribute('target', '_blank');
    }
  });
  const marked = new Marked({ gfm: true, async: false });
  return (markdown) => {
    const html = purifier.sanitize(marked.parse(markdown, { async: false }), {
      USE_PROFILES: { html: true },
      FORBID_TAGS: forbiddenTags,
      FORBID_ATTR: ['style', 'srcset', 'action', 'formaction', 'background', 'poster', 'ping'],
      ALLOW_DATA_ATTR: false,
      ADD_ATTR: ['target'],
    });
    return longRun.test(html) ? withBreaks(html, window) : html;
  };
}

/** Characters without a space after which a line may break. */
const runLimit = 200;
const longRun = new RegExp(`\\S{${runLimit},}`);

/**
 * A line break opportunity (<wbr>) every `runLimit` characters of a run without spaces, outside <pre>: Chromium
 * wraps a 100,000-character "word" in the page's system font in seconds (a skill page held for 5 s), and in
 * milliseconds once it is cut into runs. <wbr> adds nothing to copied text.
 */
function withBreaks(html: string, window: WindowLike): string {
  const doc = (window as unknown as Window).document;
  const template = doc.createElement('template');
  template.innerHTML = html;
  const walker = doc.createTreeWalker(template.content, 4 /* NodeFilter.SHOW_TEXT */);
  const long: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n as Text;
    if (longRun.test(text.data) && !text.parentElement?.closest('pre')) long.push(text);
  }
  for (const text of long) {
    const parts = text.data.split(new RegExp(`(\\S{${runLimit}})`)).filter((p) => p !== '');
    const fragment = doc.createDocumentFragment();
    parts.forEach((part, i) => {
      fragment.append(part);
      if (i < parts.length - 1 && /\S$/.test(part) && /^\S/.test(parts[i + 1]!))
        fragment.append(doc.createElement('wbr'));
    });
    text.replaceWith(fragment);
  }
  return template.innerHTML;
}
