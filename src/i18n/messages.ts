import type { Locale } from '../api/contract/messages';
import type { MessageId } from './en-US';

export type { MessageId };

type Catalogue = Record<MessageId, string>;
type Part = Partial<Catalogue>;
type Loaders = Record<Locale, () => Promise<{ default: Part }>>;

/** The parts of the catalogue that come with a large area's pages (src/app/routes/page-views.ts). */
export type AreaPart =
  | 'money'
  | 'creation'
  | 'digital-human'
  | 'matrix'
  | 'domains'
  | 'batch-auth'
  | 'audit'
  | 'system-init'
  | 'settings'
  | 'ai-tool'
  | 'content';
type PartName = 'signed-out' | 'signed-in' | AreaPart;

/**
 * Each locale's catalogue is a few chunks, each loaded when first wanted in the shown locale (a
 * locale switch loads every part wanted so far), so a page downloads only the language it shows
 * and the texts of what it shows:
 * - the signed-out part (signed-out-*.ts): the login page, its dialogs, exception pages and
 *   notices; the only one a signed-out visitor downloads;
 * - the signed-in part (signed-in-*.ts): the shell and the pages every session shows (home…),
 *   loaded with the session (`loadSignedInMessages`, which the router's guard awaits beside the
 *   shell's actors);
 * - the large areas' parts (signed-in-<area>-*.ts), loaded with their pages' views
 *   (`loadMessageParts`, awaited by the route's lazy load).
 * Both locales are complete (typed `Record<…, string>` part by part; tests/unit/i18n.test.ts
 * compares the ids; tests/unit/catalogue-parts.test.ts checks each page's code against the parts
 * it loads), so no fallback is merged in.
 */
const LOADERS: Record<PartName, Loaders> = {
  'signed-out': {
    'en-US': () => import('./signed-out-en-US'),
    'zh-CN': () => import('./signed-out-zh-CN'),
  },
  'signed-in': {
    'en-US': () => import('./signed-in-en-US'),
    'zh-CN': () => import('./signed-in-zh-CN'),
  },
  money: {
    'en-US': () => import('./signed-in-money-en-US'),
    'zh-CN': () => import('./signed-in-money-zh-CN'),
  },
  creation: {
    'en-US': () => import('./signed-in-creation-en-US'),
    'zh-CN': () => import('./signed-in-creation-zh-CN'),
  },
  'digital-human': {
    'en-US': () => import('./signed-in-digital-human-en-US'),
    'zh-CN': () => import('./signed-in-digital-human-zh-CN'),
  },
  matrix: {
    'en-US': () => import('./signed-in-matrix-en-US'),
    'zh-CN': () => import('./signed-in-matrix-zh-CN'),
  },
  // The audit log viewer's texts (/account/audit).
  audit: {
    'en-US': () => import('./signed-in-audit-en-US'),
    'zh-CN': () => import('./signed-in-audit-zh-CN'),
  },
  domains: {
    'en-US': () => import('./signed-in-domains-en-US'),
    'zh-CN': () => import('./signed-in-domains-zh-CN'),
  },
  // The settings and prices page (/account/settings).
  settings: {
    'en-US': () => import('./signed-in-settings-en-US'),
    'zh-CN': () => import('./signed-in-settings-zh-CN'),
  },
  'ai-tool': {
    'en-US': () => import('./signed-in-ai-tool-en-US'),
    'zh-CN': () => import('./signed-in-ai-tool-zh-CN'),
  },
  // The public batch authorisation page's texts (no login needed), loaded with that page only.
  'batch-auth': {
    'en-US': () => import('./signed-out-batch-auth-en-US'),
    'zh-CN': () => import('./signed-out-batch-auth-zh-CN'),
  },
  // The system init page (/account/system-init).
  'system-init': {
    'en-US': () => import('./signed-in-system-init-en-US'),
    'zh-CN': () => import('./signed-in-system-init-zh-CN'),
  },
  // Articles and agreements (/protocol/*, the help centre, the agreement dialogs).
  content: {
    'en-US': () => import('./signed-in-content-en-US'),
    'zh-CN': () => import('./signed-in-content-zh-CN'),
  },
};
export const AREA_PARTS: readonly AreaPart[] = [
  'money',
  'creation',
  'digital-human',
  'matrix',
  'domains',
  'batch-auth',
  'audit',
  'system-init',
  'settings',
  'ai-tool',
  'content',
];
/** Every part, in the order they are merged. */
const PART_NAMES: readonly PartName[] = ['signed-out', 'signed-in', ...AREA_PARTS];

const loading = new Map<string, Promise<Part>>();
const arrived = new Map<string, Part>();
/** The parts asked for so far (by a session, by a page): loaded for any locale shown later too. */
const wanted = new Set<PartName>(['signed-out']);
/** Per locale: the parts arrived so far, merged, and which ones they are. */
const merged: Partial<Record<Locale, { catalogue: Catalogue; parts: string }>> = {};
const listeners = new Set<() => void>();

/** One part of a locale's catalogue, downloaded once (a failed download may be tried again). */
function part(name: PartName, locale: Locale): Promise<Part> {
  const key = `${name}:${locale}`;
  let promise = loading.get(key);
  if (!promise) {
    promise = LOADERS[name][locale]().then(
      (module) => {
        arrived.set(key, module.default);
        return module.default;
      },
      (error: unknown) => {
        loading.delete(key);
        throw error;
      },
    );
    loading.set(key, promise);
  }
  return promise;
}

/** Merges the locale's arrived parts into a new catalogue when one has arrived since the last. */
function merge(locale: Locale): void {
  const names = PART_NAMES.filter((name) => arrived.has(`${name}:${locale}`));
  const parts = names.join(',');
  if (merged[locale]?.parts === parts) return;
  const catalogue = Object.assign({}, ...names.map((name) => arrived.get(`${name}:${locale}`)));
  merged[locale] = { catalogue, parts };
  listeners.forEach((listener) => listener());
}

/**
 * Loads a locale's catalogue: its signed-out part, and every other part asked for so far (by the
 * session, by the pages shown); `messagesFor` may be called for the locale afterwards.
 */
export async function loadMessages(locale: Locale): Promise<void> {
  await Promise.all([...wanted].map((name) => part(name, locale)));
  merge(locale);
}

/** Loads the parts every session needs, and with them any locale switched to later. */
export function loadSignedInMessages(locale: Locale): Promise<void> {
  wanted.add('signed-in');
  return loadMessages(locale);
}

/** Loads these areas' parts (a page's view awaits them), and with them any locale switched to later. */
export function loadMessageParts(parts: readonly AreaPart[], locale: Locale): Promise<void> {
  wanted.add('signed-in');
  parts.forEach((name) => wanted.add(name));
  return loadMessages(locale);
}

/** Calls `listener` when a catalogue changes (a part arrived). */
export function subscribeMessages(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/**
 * The catalogue of a loaded locale. The same object for a locale until another of its parts
 * arrives: react-intl makes a new `intl` (and effects that depend on it run again) whenever its
 * messages change.
 */
export function messagesFor(locale: Locale): Catalogue {
  const messages = merged[locale];
  if (!messages) throw new Error(`the ${locale} catalogue is used before loadMessages`);
  return messages.catalogue;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace FormatjsIntl {
    interface Message {
      ids: MessageId;
    }
  }
}
