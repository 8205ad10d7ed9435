import { describe, expect, it } from 'vitest';
import {
  bodyImages,
  sanitiseRichText,
  storedImageSrc,
} from '../../server/modules/articles/sanitise';
import { ALLOWED_FORMATTING, IMAGE, XSS_PAYLOADS } from '../e2e/xss-payloads';

/**
 * The stored form of known XSS payloads (docs/architecture.md "Rich text"): nothing that runs is
 * left — no script-capable tag, no event handler, no URL but http(s)/mailto links and our own
 * platform images' addresses. tests/e2e/sanitiser.spec.ts renders the same table in Chromium.
 */
const RUNNABLE_TAGS =
  /<\s*\/?\s*(script|iframe|svg|math|object|embed|form|style|base|meta|link|template|textarea|title|xmp|select|option|noscript|noembed|input|video|audio|source|details|marquee|body)\b/i;

describe('the rich-text sanitiser', () => {
  it.each(XSS_PAYLOADS.map((payload, i) => [i + 1, payload]))(
    'leaves nothing runnable of payload %i',
    (_, payload) => {
      const stored = sanitiseRichText(payload);
      expect(stored).not.toMatch(RUNNABLE_TAGS);
      // No attribute named on… (a handler), whatever the quoting.
      expect(stored).not.toMatch(/<[^>]*\son[a-z]+\s*=/i);
      expect(stored).not.toMatch(/(javascript|data|vbscript):/i);
      expect(stored).not.toMatch(/url\s*\(/i);
      for (const [, url] of stored.matchAll(/\s(?:href|src)="([^"]*)"/g)) {
        expect(url).toMatch(/^(https?:\/\/|mailto:|\/api\/v1\/images\/)/);
      }
      // Stored output is a fixed point: sanitising it again changes nothing.
      expect(sanitiseRichText(stored)).toBe(stored);
    },
  );

  it('keeps the formatting the editor writes', () => {
    expect(sanitiseRichText(ALLOWED_FORMATTING.input)).toBe(ALLOWED_FORMATTING.stored);
  });

  it('drops Word and WeChat styling (mso- styles, classes) and keeps the text', () => {
    const word =
      '<p class="MsoNormal" style="mso-margin-top-alt:auto;text-align:justify;font-family:SimSun"><span lang="EN-US" style="mso-bidi-font-size:10.5pt">Word</span><o:p></o:p></p><section style="color:rgb(1,2,3)" data-tools="135editor"><p><span>WeChat</span></p></section>';
    expect(sanitiseRichText(word)).toBe('<p style="text-align:justify">Word</p><p>WeChat</p>');
  });

  it('keeps images only of our platform images: never data:, another origin or a query', () => {
    expect(storedImageSrc(` ${IMAGE} `)).toBe(IMAGE);
    for (const bad of [
      'data:image/png;base64,AA',
      'https://cdn.example/a.png',
      `//cdn.example${IMAGE}`,
      `http://127.0.0.1${IMAGE}`,
      `${IMAGE}?v=1`,
      '/api/v1/images/../../app.db',
      '/api/v1/images/0123456789abcdef0123456789abcdef.svg',
      '/api/v1/files/u/1/a.png?exp=1&sig=x',
      '/api/v1/images/',
    ]) {
      expect(storedImageSrc(bad), bad).toBeNull();
    }
    const stored = sanitiseRichText(
      `<p>a</p><img src="data:image/png;base64,iVBORw0KGgo="><img alt="x" src="${IMAGE}"><img src="/api/v1/files/a.png">`,
    );
    expect(stored).toBe(`<p>a</p><img alt="x" src="${IMAGE}" />`);
    expect(bodyImages(stored)).toEqual([IMAGE]);
  });
});
