import type { Locale } from '../api/contract/messages';
import enUS, { type MessageId } from './en-US';
import zhCN from './zh-CN';

export type { MessageId };

/** en-US is the fallback: a message missing from a catalogue shows in English. */
export function messagesFor(locale: Locale): Record<MessageId, string> {
  return locale === 'en-US' ? enUS : { ...enUS, ...zhCN };
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace FormatjsIntl {
    interface Message {
      ids: MessageId;
    }
  }
}
