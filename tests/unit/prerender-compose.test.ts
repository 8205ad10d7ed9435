// @vitest-environment node
import { describe, expect, test } from 'vitest';
import { composeLoginHtml, trimUnusedProperties } from '../../src/prerender/compose';

const INDEX =
  '<!doctype html><html><head><title>x</title></head><body><div id="root"></div></body></html>';
const SCRIPT = 'pick()';
const style = (key: string, css: string) => `<style data-emotion="${key}">${css}</style>`;
const page = (text: string) =>
  `${style('css-global g1', 'html{}')}${style('css a1', '.css-a1{}')}<form noValidate=""><button>${text}</button></form>${style('css b2', '.css-b2{}')}`;

describe('login.html composition', () => {
  const html = composeLoginHtml(INDEX, { 'zh-CN': page('登录'), 'en-US': page('Login') }, SCRIPT);
  const head = html.slice(0, html.indexOf('</head>'));
  const body = html.slice(html.indexOf('<body>'));

  test('styles go to <head> once each, in order of first appearance; none stay in the markup', () => {
    expect(head.match(/<style /g)).toHaveLength(3);
    expect(head.indexOf('css-global g1')).toBeLessThan(head.indexOf('css a1'));
    expect(head.indexOf('css a1')).toBeLessThan(head.indexOf('css b2'));
    expect(body).not.toContain('<style');
  });

  test('the first variant shows, the others wait in templates, before the console root', () => {
    expect(body).toMatch(/^<body><div id="prerender"[^>]*><form[^>]*><button>登录<\/button>/);
    expect(body).toContain('<template id="prerender-en-US"><form');
    expect(body).toContain('<script>pick()</script>');
    expect(body.indexOf('<script>')).toBeLessThan(body.indexOf('<div id="root">'));
  });

  test('a form of the copy never sends the password in a URL, even without scripts', () => {
    const forms = html.match(/<form[^>]*>/g) ?? [];
    expect(forms).toHaveLength(2);
    for (const form of forms) expect(form).toContain('method="post" action="/login"');
  });

  test('refuses an index.html it cannot place the copy in, and no variants', () => {
    expect(() => composeLoginHtml('<html></html>', { 'zh-CN': page('x') }, SCRIPT)).toThrow(
      /index.html/,
    );
    expect(() => composeLoginHtml(INDEX, {}, SCRIPT)).toThrow(/no variant/);
  });
});

describe('trimming the global styles to what the copy uses', () => {
  const css =
    ':root{--a:1px;--b:var(--a);--c:red;--d:var(--c);--unused:0}.dark{--c:blue;--unused:1}' +
    'html{color:var(--b);--e:2}';
  test('keeps what is used, directly or through other properties, in every block', () => {
    const trimmed = trimUnusedProperties(css, '<p style="margin:var(--d)">');
    expect(trimmed).toBe(
      ':root{--a:1px;--b:var(--a);--c:red;--d:var(--c);}.dark{--c:blue;}html{color:var(--b);}',
    );
  });

  test('the trimmed global styles are not offered to emotion as its own', () => {
    const global = `<style data-emotion="css-global g9">${css}</style>`;
    const html = composeLoginHtml(INDEX, { 'zh-CN': `${global}<p class="css-x">x</p>` }, SCRIPT);
    expect(html).toContain('<style data-prerendered="css-global g9">:root{--a:1px;--b:var(--a);}');
    expect(html).not.toContain('data-emotion="css-global g9"');
  });
});
