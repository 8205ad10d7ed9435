import { describe, expect, it } from 'vitest';
import { sanitiseRichText, storedFileSrc } from '../../server/modules/articles/sanitise';
import { ALLOWED_FORMATTING, XSS_PAYLOADS } from '../e2e/xss-payloads';

/**
 * The stored form of known XSS payloads (docs/architecture.md "Rich text"): nothing that runs is
 * left — no script-capable tag, no event handler, no URL but http(s)/mailto links and our own
 * files' paths. tests/e2e/sanitiser.spec.ts renders the same table in Chromium.
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
        expect(url).toMatch(/^(https?:\/\/|mailto:|\/api\/v1\/files\/)/);
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

  it('keeps images only of our stored files', () => {
    expect(storedFileSrc('/api/v1/files/u/1/a.png?exp=1&sig=x')).toBe('/api/v1/files/u/1/a.png');
    for (const bad of [
      'data:image/png;base64,AA',
      'https://cdn.example/a.png',
      '//cdn.example/a.png',
      '/api/v1/files/../../etc/passwd',
      '/api/v1/filesx/a.png',
      '/api/v1/files/',
    ]) {
      expect(storedFileSrc(bad), bad).toBeNull();
    }
  });
});
