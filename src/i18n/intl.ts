import { createIntl, createIntlCache, type IntlShape } from 'react-intl';
import type { Locale } from '../api/contract/messages';
import { localeStore } from './locale-store';
import { messagesFor, type MessageId } from './messages';

const cache = createIntlCache();
let intl: IntlShape | undefined;

/** An IntlShape for code outside React (toasts raised by the HTTP layer), kept in step with the locale. */
export function intlFor(locale: Locale): IntlShape {
  if (!intl || intl.locale !== locale) {
    intl = createIntl({ locale, defaultLocale: 'en-US', messages: messagesFor(locale) }, cache);
  }
  return intl;
}

export function currentIntl(): IntlShape {
  return intlFor(localeStore.get());
}

/** Machines and the server hand over either a message id or a ready human sentence. */
function isMessageId(intlShape: IntlShape, text: string): text is MessageId {
  return Object.prototype.hasOwnProperty.call(intlShape.messages, text);
}

export function formatText(
  intlShape: IntlShape,
  text: string,
  values?: Record<string, string | number>,
) {
  return isMessageId(intlShape, text) ? intlShape.formatMessage({ id: text }, values) : text;
}
