import type { Locale } from '../api/contract/messages';

/**
 * login.html (served for /login): the console's index.html with the login page pre-rendered at
 * build time, so a signed-out visitor sees the page as soon as the HTML arrives instead of once
 * the scripts have run. The console renders its own page underneath and, when it commits, takes
 * over what the visitor typed, ticked, focused or submitted and removes the pre-rendered copy
 * (src/app/boot/prerender-handover.ts). Emotion adopts the styles in <head> as already inserted.
 */

export const PRERENDER_ID = 'prerender';

export function variantName(locale: Locale, remembered: boolean): string {
  return remembered ? `${locale}-remember` : locale;
}

const STYLE_TAG = /<style data-emotion="([^"]*)"[^>]*>[\s\S]*?<\/style>/g;

/**
 * Should the inline script not run (blocked, scripts off), a submit of the copy must not put the
 * password in a URL: the copy's form posts to the page's own path, which answers 404.
 */
function safeForm(markup: string): string {
  return markup.replace(/<form(?![^>]*\smethod=)/g, '<form method="post" action="/login"');
}

/** Splits rendered HTML into its emotion style tags (by key) and the markup without them. */
function splitStyles(html: string): { styles: Map<string, string>; markup: string } {
  const styles = new Map<string, string>();
  const markup = html.replace(STYLE_TAG, (tag, key: string) => {
    styles.set(key, tag);
    return '';
  });
  return { styles, markup };
}

const VAR_REF = /var\(\s*(--[\w-]+)/g;
const CUSTOM_PROPERTY = /(--[\w-]+)\s*:([^;{}]*);?/g;

/**
 * Drops the custom properties that nothing in `usedIn` or in the rest of `css` needs, directly or
 * through other properties: Chakra's global styles define every token of the theme (≈ 50 KB),
 * and the login page needs a few dozen.
 */
export function trimUnusedProperties(css: string, usedIn: string): string {
  const values = new Map<string, string[]>();
  for (const [, name, value] of css.matchAll(CUSTOM_PROPERTY)) {
    values.set(name, [...(values.get(name) ?? []), value]);
  }
  const needed = new Set<string>();
  const queue = [...(usedIn + css.replace(CUSTOM_PROPERTY, '')).matchAll(VAR_REF)].map((m) => m[1]);
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
    if (needed.has(name)) continue;
    needed.add(name);
    for (const value of values.get(name) ?? [])
      queue.push(...[...value.matchAll(VAR_REF)].map((m) => m[1]));
  }
  return css.replace(CUSTOM_PROPERTY, (declaration, name: string) =>
    needed.has(name) ? declaration : '',
  );
}

/**
 * The global styles, trimmed to what the copy uses, under another attribute: emotion must not
 * adopt them as Chakra's whole global styles (it inserts those itself when the console starts).
 */
function trimGlobalStyles(styles: Map<string, string>, markup: string): void {
  const rest = [...styles.entries()].filter(([key]) => !key.startsWith('css-global '));
  const usedIn = markup + rest.map(([, tag]) => tag).join('');
  for (const [key, tag] of styles) {
    if (!key.startsWith('css-global ')) continue;
    const css = tag.replace(/^<style[^>]*>|<\/style>$/g, '');
    const trimmed = trimUnusedProperties(css, usedIn);
    if (trimmed.length === css.length) continue; // nothing to drop: emotion may adopt it as it is
    styles.set(key, `<style data-prerendered="${key}">${trimmed}</style>`);
  }
}

/**
 * `variants`: name → rendered HTML; the first is the default, shown without any script.
 * `inlineScript` picks the variant in the browser (src/app/boot/prerender-inline.ts, bundled).
 */
export function composeLoginHtml(
  indexHtml: string,
  variants: Record<string, string>,
  inlineScript: string,
): string {
  const styles = new Map<string, string>();
  const markups = Object.entries(variants).map(([name, html]) => {
    const split = splitStyles(html);
    split.styles.forEach((tag, key) => {
      if (!styles.has(key)) styles.set(key, tag);
    });
    return { name, markup: safeForm(split.markup) };
  });
  trimGlobalStyles(styles, markups.map((m) => m.markup).join(''));
  const [first, ...rest] = markups;
  if (!first) throw new Error('composeLoginHtml: no variant');
  if (!indexHtml.includes('</head>') || !indexHtml.includes('<div id="root">')) {
    throw new Error('composeLoginHtml: index.html has no </head> or <div id="root">');
  }
  const overlay =
    `<div id="${PRERENDER_ID}" style="position:fixed;inset:0;overflow:auto;z-index:1">` +
    `${first.markup}</div>` +
    rest.map((v) => `<template id="${PRERENDER_ID}-${v.name}">${v.markup}</template>`).join('') +
    `<script>${inlineScript}</script>`;
  return indexHtml
    .replace('</head>', `${[...styles.values()].join('')}</head>`)
    .replace('<div id="root">', `${overlay}<div id="root">`);
}
