import { createIntl, createIntlCache, type IntlShape } from 'react-intl';
import type { Locale } from '../api/contract/messages';
import { localeStore } from './locale-store';
import { messagesFor, type MessageId } from './messages';

const cache = createIntlCache();
let intl: IntlShape | undefined;

/**
 * An IntlShape for code outside React (toasts raised by the HTTP layer and the area modules), kept
 * in step with the locale and with the catalogue's parts loaded so far (src/i18n/messages.ts).
 */
export function intlFor(locale: Locale): IntlShape {
  const messages = messagesFor(locale);
  if (!intl || intl.locale !== locale || intl.messages !== messages) {
    intl = createIntl({ locale, defaultLocale: 'en-US', messages }, cache);
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
