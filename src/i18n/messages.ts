import type { Locale } from '../api/contract/messages';
import type { MessageId } from './en-US';

export type { MessageId };

type Catalogue = Record<MessageId, string>;

/**
 * Each catalogue is its own chunk, loaded when its locale is first shown (at start, the stored
 * one; the other on a switch), so a page downloads only the language it shows. Both are complete
 * (zh-CN is typed `Record<MessageId, string>` and tests/unit/i18n.test.ts compares the ids), so no
 * fallback is merged in.
 */
const LOADERS: Record<Locale, () => Promise<{ default: Catalogue }>> = {
  'en-US': () => import('./en-US'),
  'zh-CN': () => import('./zh-CN'),
};

const loaded: Partial<Record<Locale, Catalogue>> = {};

/** Loads a locale's catalogue (once); `messagesFor` may be called for it afterwards. */
export async function loadMessages(locale: Locale): Promise<void> {
  loaded[locale] ??= (await LOADERS[locale]()).default;
}

/**
 * The catalogue of a loaded locale. The same object for a locale every time: react-intl makes a
 * new `intl` (and effects that depend on it run again) whenever its messages change.
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
