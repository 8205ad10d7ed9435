import sanitizeHtml from 'sanitize-html';
import { isPlatformImageUrl } from '../../../src/api/contract/platform-image-rules';

/**
 * The rich-text sanitiser (docs/architecture.md "Rich text"): every article and agreement body
 * passes through it on save, on the server, and the stored result is what every reader gets.
 * An allow-list: what is not named here is dropped (a tag's text is kept, escaped; the contents
 * of script, style, noscript, textarea, iframe, svg, math, object, template are dropped whole).
 */

/**
 * An image source we keep: the address of one of our platform images (`/api/v1/images/<name>`,
 * docs/domain.md §8), as the editor inserts it. Never `data:` (a base64 image is dropped, never
 * stored in a body), never another origin, never a query or a path that climbs. Whether the writer
 * may use the image is the service's check (`bodyImages`).
 */
export function storedImageSrc(src: string | undefined): string | null {
  const path = src?.trim() ?? '';
  return isPlatformImageUrl(path) ? path : null;
}

/** The image addresses a stored (sanitised) body holds. */
export function bodyImages(html: string): string[] {
  return [...html.matchAll(/<img\s[^>]*?\bsrc="([^"]*)"/g)].map((m) => m[1]!);
}

const ALIGN = [/^(left|right|center|justify)$/];
const ALIGNED = ['p', 'h1', 'h2', 'h3', 'h4', 'li', 'td', 'th', 'blockquote'] as const;

/** Tags whose contents go with them (never shown as text). */
const DROPPED_WHOLE = [
  'script',
  'style',
  'noscript',
  'textarea',
  'option',
  'iframe',
  'svg',
  'math',
  'object',
  'embed',
  'template',
  'xmp',
  'noembed',
  'noframes',
  'select',
  'title',
  'head',
];

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'h1',
    'h2',
    'h3',
    'h4',
    'p',
    'br',
    'hr',
    'blockquote',
    'ul',
    'ol',
    'li',
    'a',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'strike',
    'del',
    'code',
    'pre',
    'img',
    'table',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
    'caption',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    td: ['colspan', 'rowspan', 'style'],
    th: ['colspan', 'rowspan', 'style'],
    ol: ['start'],
    ...Object.fromEntries(
      ALIGNED.filter((tag) => tag !== 'td' && tag !== 'th').map((tag) => [tag, ['style']]),
    ),
  },
  // Only the alignment survives of a style attribute: no url(, no expression, no position.
  allowedStyles: { '*': { 'text-align': ALIGN } },
  allowedClasses: {},
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: [] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: false,
  allowedIframeHostnames: [],
  disallowedTagsMode: 'discard',
  nonTextTags: DROPPED_WHOLE,
  enforceHtmlBoundary: false,
  parseStyleAttributes: true,
  transformTags: {
    a: (tagName, attribs) => {
      const out: sanitizeHtml.Attributes = { ...attribs, rel: 'noopener noreferrer' };
      if (out.target !== undefined && out.target !== '_blank') delete out.target;
      return { tagName, attribs: out };
    },
    img: (tagName, attribs) => {
      const src = storedImageSrc(attribs.src);
      const out: sanitizeHtml.Attributes = { ...attribs };
      if (src) out.src = src;
      else delete out.src;
      return { tagName, attribs: out };
    },
  },
  // An image without one of our images is no image; a link without a kept href keeps its text.
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
};

/** The stored form of a rich-text body (docs/architecture.md "Rich text"). */
export function sanitiseRichText(html: string): string {
  // Twice: what the first pass leaves is already its own fixed point; a second pass that changes
  // anything would mean a parser differential, so the second output is what is stored.
  return sanitizeHtml(sanitizeHtml(html, OPTIONS), OPTIONS).trim();
}
