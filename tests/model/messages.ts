import enUS, { type MessageId } from '../../src/i18n/en-US';

/** A message of the English catalogue, as a view test expects to read it. */
export const text = (id: MessageId): string => enUS[id];

/** The same with its `{placeholders}` filled (simple arguments only; no plural or select). */
export const fill = (id: MessageId, values: Record<string, string | number>): string =>
  text(id).replace(/\{(\w+)\}/g, (_, k: string) => String(values[k] ?? ''));
