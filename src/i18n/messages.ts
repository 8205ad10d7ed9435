import type { Locale } from '../api/contract/messages';
import enUS, { type MessageId } from './en-US';
import zhCN from './zh-CN';

export type { MessageId };

const zhCNWithFallback = { ...enUS, ...zhCN };

/**
 * en-US is the fallback: a message missing from a catalogue shows in English. The same object
 * for a locale every time: react-intl makes a new `intl` (and effects that depend on it run
 * again) whenever its messages change.
 */
export function messagesFor(locale: Locale): Record<MessageId, string> {
  return locale === 'en-US' ? enUS : zhCNWithFallback;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace FormatjsIntl {
    interface Message {
      ids: MessageId;
    }
  }
}
