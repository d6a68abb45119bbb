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
  return (markdown) =>
    purifier.sanitize(marked.parse(markdown, { async: false }), {
      USE_PROFILES: { html: true },
      FORBID_TAGS: forbiddenTags,
      FORBID_ATTR: ['style', 'srcset', 'action', 'formaction', 'background', 'poster', 'ping'],
      ALLOW_DATA_ATTR: false,
      ADD_ATTR: ['target'],
    });
}
