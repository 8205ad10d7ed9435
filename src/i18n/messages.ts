import type { Locale } from '../api/contract/messages';
import enUS, { type MessageId } from './en-US';
import zhCN from './zh-CN';

export type { MessageId };

/**
 * The catalogue of a locale. Both are complete (zh-CN is typed `Record<MessageId, string>` and
 * tests/unit/i18n.test.ts compares the ids), so no fallback is merged in. The same object for a
 * locale every time: react-intl makes a new `intl` (and effects that depend on it run again)
 * whenever its messages change.
 */
export function messagesFor(locale: Locale): Record<MessageId, string> {
  return locale === 'en-US' ? enUS : zhCN;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace FormatjsIntl {
    interface Message {
      ids: MessageId;
    }
  }
}
