import type { Locale } from '../../../src/api/contract/messages';
import { isMessageId, t } from '../../platform/i18n';

/** The texts the server itself writes into ledger memos and transfer remarks. */
export type MemoId =
  | 'memo.demoOpeningBalance'
  | 'memo.demoTransfer'
  | 'memo.trialCreditTo'
  | 'memo.trialCreditFrom'
  | 'memo.taskFreeze'
  | 'memo.taskRefund'
  | 'memo.dhFreeze'
  | 'memo.dhExtra'
  | 'memo.dhRefund'
  | 'memo.dhUnused';

/** A memo the server writes: stored as an id and parameters, read in each viewer's language. */
export interface ServerMemo {
  id: MemoId;
  params?: Readonly<Record<string, string>>;
}

/** A person's own text (stored as written) or a server-written memo. */
export type Memo = string | ServerMemo;

/** The columns of a memo: the text (en-US for a server memo, for older readers), id, params. */
export function memoColumns(memo: Memo | undefined): {
  text: string;
  id: string | null;
  params: string | null;
} {
  if (memo === undefined || typeof memo === 'string') {
    return { text: memo ?? '', id: null, params: null };
  }
  return {
    text: t('en-US', memo.id, memo.params),
    id: memo.id,
    params: memo.params ? JSON.stringify(memo.params) : null,
  };
}

/** What a viewer reads: a server-written memo in their language, a person's text as written. */
export function memoText(
  locale: Locale,
  text: string,
  id: string | null,
  params: string | null,
): string {
  if (id === null || !isMessageId(id)) return text;
  return t(locale, id, params ? (JSON.parse(params) as Record<string, string>) : {});
}
