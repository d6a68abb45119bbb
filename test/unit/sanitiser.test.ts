// The SKILL.md renderer is fed untrusted text: it must never produce script, handlers, javascript: links or remote loads.
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { createSkillMarkdownRenderer } from '../../src/renderer/src/markdown/sanitise';

const dom = new JSDOM('<!doctype html><html><body></body></html>');
const render = createSkillMarkdownRenderer(
  dom.window as unknown as Parameters<typeof createSkillMarkdownRenderer>[0],
);

function parse(html: string): Document {
  return new JSDOM(`<body>${html}</body>`).window.document;
}

describe('skill markdown sanitiser', () => {
  it('keeps ordinary markdown', () => {
    const doc = parse(render('# Heat a mug\n\n1. Open the **microwave**\n\n```sh\necho ok\n```'));
    expect(doc.querySelector('h1')?.textContent).toBe('Heat a mug');
    expect(doc.querySelector('strong')?.textContent).toBe('microwave');
    expect(doc.querySelector('pre code')?.textContent).toContain('echo ok');
  });

  it('removes script tags, inline and in raw HTML blocks', () => {
    const html = render(
      'Hello <script>alert(1)</script>\n\n<div><script src="https://evil.test/x.js"></script></div>',
    );
    const doc = parse(html);
    expect(doc.querySelectorAll('script')).toHaveLength(0);
    expect(html).not.toContain('alert(1)');
    expect(html).not.toContain('evil.test');
  });

  it('removes event handler attributes such as onerror and onclick', () => {
    const html = render(
      '<img src="x" onerror="alert(1)"> <a href="#a" onclick="steal()">a</a> <p onmouseover="x()">p</p>',
    );
    const doc = parse(html);
    for (const el of doc.querySelectorAll('*')) {
      for (const attr of el.getAttributeNames()) expect(attr.startsWith('on')).toBe(false);
    }
    expect(html).not.toContain('alert(1)');
    expect(html).not.toContain('steal()');
  });

  it('drops javascript: and other non-web links, in markdown and in HTML', () => {
    const doc = parse(
      render(
        '[click](javascript:alert(1)) <a href="JaVaScRiPt:alert(2)">b</a> <a href="vbscript:x">c</a> [ok](https://example.org/docs)',
      ),
    );
    const hrefs = [...doc.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(hrefs.filter((h) => h !== null && /script:/i.test(h))).toEqual([]);
    expect(hrefs).toContain('https://example.org/docs');
    for (const a of doc.querySelectorAll('a[href]')) expect(a.getAttribute('rel')).toContain('noopener');
  });

  it('blocks remote and relative images but keeps inline data: images', () => {
    const pixel =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const doc = parse(
      render(
        `![tracker](https://evil.test/p.gif) ![rel](assets/a.png) <img srcset="https://evil.test/a.png 2x"> ![dot](${pixel})`,
      ),
    );
    const srcs = [...doc.querySelectorAll('img')].map((img) => img.getAttribute('src'));
    expect(srcs).toEqual([null, null, null, pixel]);
    for (const img of doc.querySelectorAll('img')) expect(img.hasAttribute('srcset')).toBe(false);
    expect(doc.querySelector('img')?.getAttribute('alt')).toContain('not loaded');
  });

  it('removes elements and attributes that load remote content (iframes, svg, style)', () => {
    const html = render(
      '<iframe src="https://evil.test"></iframe><svg><image href="https://evil.test/i.png"/></svg>' +
        '<p style="background:url(https://evil.test/bg.png)">x</p><link rel="stylesheet" href="https://evil.test/s.css">',
    );
    expect(html).not.toContain('evil.test');
    expect(parse(html).querySelector('p')?.textContent).toBe('x');
  });

  it('gives a long run without spaces line-break opportunities, keeping its text, but not inside <pre>', () => {
    const run = 'A'.repeat(1000);
    const doc = parse(
      render(
        `Before ${run} after.\n\n\`\`\`\n${run}\n\`\`\`\n\n![x](data:image/png;base64,${'Q'.repeat(400)})`,
      ),
    );
    const p = doc.querySelector('p')!;
    expect(p.textContent).toBe(`Before ${run} after.`);
    expect(p.querySelectorAll('wbr').length).toBe(4);
    expect(doc.querySelector('pre')!.querySelectorAll('wbr')).toHaveLength(0);
    expect(doc.querySelector('pre')!.textContent).toContain(run);
    expect(doc.querySelector('img')!.getAttribute('src')).toBe(`data:image/png;base64,${'Q'.repeat(400)}`);
    // Still nothing that runs.
    expect(render(`<img src=x onerror=alert(1)>${run}`)).not.toMatch(/onerror|alert/);
  });
});
