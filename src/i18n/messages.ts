import type { Locale } from '../api/contract/messages';
import type { MessageId } from './en-US';

export type { MessageId };

type Catalogue = Record<MessageId, string>;
type Part = Partial<Catalogue>;
type Loaders = Record<Locale, () => Promise<{ default: Part }>>;

/**
 * Each locale's catalogue is two chunks, loaded when its locale is first shown (at start, the
 * stored one; the other on a switch), so a page downloads only the language it shows:
 * - the signed-out part (signed-out-*.ts): the login page, its dialogs, exception pages and
 *   notices; the only one a signed-out visitor downloads;
 * - the signed-in part (signed-in-*.ts): every other page's messages, loaded with the session
 *   (`loadSignedInMessages`, which the router's guard awaits beside the shell's actors; from
 *   then on a locale switch loads both parts).
 * Both locales are complete (typed `Record<…, string>`; tests/unit/i18n.test.ts compares the ids),
 * so no fallback is merged in.
 */
const SIGNED_OUT: Loaders = {
  'en-US': () => import('./signed-out-en-US'),
  'zh-CN': () => import('./signed-out-zh-CN'),
};
const SIGNED_IN: Loaders = {
  'en-US': () => import('./signed-in-en-US'),
  'zh-CN': () => import('./signed-in-zh-CN'),
};

const parts = new Map<Loaders, Partial<Record<Locale, Promise<Part>>>>([
  [SIGNED_OUT, {}],
  [SIGNED_IN, {}],
]);
/** Per locale: the signed-out part alone, then (once loaded) both parts merged. */
const loaded: Partial<Record<Locale, Catalogue>> = {};
const complete = new Set<Locale>();
let signedInWanted = false;
const listeners = new Set<() => void>();

/** One part of a locale's catalogue, downloaded once (a failed download may be tried again). */
function part(loaders: Loaders, locale: Locale): Promise<Part> {
  const cache = parts.get(loaders)!;
  const loading = (cache[locale] ??= loaders[locale]().then(
    (module) => module.default,
    (error: unknown) => {
      delete cache[locale];
      throw error;
    },
  ));
  return loading;
}

/**
 * Loads a locale's catalogue (once): its signed-out part, and its signed-in part too once a
 * session has asked for it; `messagesFor` may be called for the locale afterwards.
 */
export async function loadMessages(locale: Locale): Promise<void> {
  const withSignedIn = signedInWanted;
  const [out, signedIn] = await Promise.all([
    part(SIGNED_OUT, locale),
    withSignedIn ? part(SIGNED_IN, locale) : undefined,
  ]);
  if (complete.has(locale) || (loaded[locale] && !signedIn)) return;
  // Without the signed-in part the catalogue lacks the signed-in pages' ids, which only
  // signed-in pages (rendered after `loadSignedInMessages`) ask for.
  loaded[locale] = (signedIn ? { ...out, ...signedIn } : out) as Catalogue;
  if (signedIn) complete.add(locale);
  listeners.forEach((listener) => listener());
}

/** Loads both parts of a locale's catalogue, and both parts of any locale switched to later. */
export function loadSignedInMessages(locale: Locale): Promise<void> {
  signedInWanted = true;
  return loadMessages(locale);
}

/** Calls `listener` when a catalogue changes (its signed-in part arrived). */
export function subscribeMessages(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/**
 * The catalogue of a loaded locale. The same object for a locale until its signed-in part
 * arrives: react-intl makes a new `intl` (and effects that depend on it run again) whenever its
 * messages change.
 */
export function messagesFor(locale: Locale): Catalogue {
  const messages = loaded[locale];
  if (!messages) throw new Error(`the ${locale} catalogue is used before loadMessages`);
  return messages;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace FormatjsIntl {
    interface Message {
      ids: MessageId;
    }
  }
}
