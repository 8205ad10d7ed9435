import { useCallback } from 'react';
import { useIntl } from 'react-intl';
import type { MessageId } from '../../i18n/messages';

/** A view's message function: a catalogue id and its values, in the person's language. */
export type T = (id: MessageId, values?: Record<string, string | number>) => string;

export function useT(): T {
  const intl = useIntl();
  return useCallback<T>((id, values) => intl.formatMessage({ id }, values), [intl]);
}
