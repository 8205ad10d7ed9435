import { Readable } from 'node:stream';
import type {
  CardFilter,
  ExportTicketParams,
  ExportTicketReply,
} from '../../../src/api/contract/cards';
import type { Locale } from '../../../src/api/contract/messages';
import { roleOf } from '../../../src/api/contract/roles';
import type { AppContext, AuthContext } from '../../context';
import { USER_STATUS } from '../../platform/db/schema';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import {
  csvCell,
  issueDownloadTicket,
  spendDownloadTicket,
  ticketRefused,
} from '../../platform/http/download-tickets';
import { API_PREFIX } from '../../platform/http/policy';
import { t } from '../../platform/i18n';
import { getSystemInfo, normalizeHost } from '../system';
import { findUserById } from '../users';
import { DAY_OFFSET } from './card-rules';
import { exportCards, type CardViewer, type ExportCard } from './repo';

interface ExportQuery {
  filter: CardFilter & { ids?: number[] };
  locale: Locale;
  /** The brand's name for money where the ticket was asked for ('' or absent: the locale's). */
  moneyName?: string;
}

/**
 * POST /recharge_card/export_ticket: a random 256-bit ticket for one download of the current
 * filter or selection, within 60 s, by whoever holds it. Only its hash is stored, with the user
 * and the query it is bound to.
 */
export async function exportTicket(
  ctx: AppContext,
  auth: AuthContext,
  body: ExportTicketParams,
  locale: Locale,
  host: string | undefined,
  audit: AuditTrail,
): Promise<ExportTicketReply> {
  const now = ctx.now();
  // Money is labelled as the console labels it: the brand's name for money on this host.
  const { money_name: moneyName } = await getSystemInfo(ctx, normalizeHost(host));
  const query: ExportQuery = { filter: body, locale, moneyName };
  const { ids: _ids, ...filter } = body;
  audit.change(null, filter);
  const { ticket, expiresAt } = await runInTransaction(
    ctx.db,
    (trx) => issueDownloadTicket(trx, { userId: auth.user.id, kind: 'cards', query, now }),
    { audit },
  );
  return {
    ticket,
    expires_at: expiresAt,
    url: `${API_PREFIX}/recharge_card/export_data?ticket=${ticket}`,
  };
}

const formatTime = (ms: number) =>
  new Date(ms + DAY_OFFSET).toISOString().slice(0, 16).replace('T', ' ');

export interface CardExport {
  filename: string;
  stream: Readable;
}

/**
 * GET /recharge_card/export_data: spends the ticket (a conditional update, so it works once),
 * re-checks its user, and streams the CSV of the bound query in pages from the database. The
 * header row is in the `lang` header's language, else the language the ticket was asked in.
 */
export async function exportData(
  ctx: AppContext,
  ticket: string,
  langHeader: Locale | undefined,
): Promise<CardExport> {
  const now = ctx.now();
  const spent = await spendDownloadTicket<ExportQuery>(ctx.db, ticket, 'cards', now);
  const user = await findUserById(ctx.db, spent.userId);
  if (!user || user.status !== USER_STATUS.normal) throw ticketRefused();
  const role = roleOf(user.user_type);
  if (role !== 'admin' && role !== 'partner') throw ticketRefused();
  const { query } = spent;
  const locale = langHeader ?? query.locale;
  const viewer: CardViewer = { role, id: user.id };

  return {
    filename: `cards-${new Date(now + DAY_OFFSET).toISOString().slice(0, 10)}.csv`,
    stream: Readable.from(cardCsv(ctx, viewer, query.filter, locale, now, query.moneyName)),
  };
}

/**
 * The CSV of an export: the header row, then one chunk per page of rows read from the database
 * (so an export of any size holds one page in memory). Also the bench's direct baseline.
 */
export async function* cardCsv(
  ctx: AppContext,
  viewer: CardViewer,
  filter: CardFilter & { ids?: number[] },
  locale: Locale,
  now: number,
  moneyName = '',
): AsyncGenerator<string> {
  const assetLabel = (asset: ExportCard['asset']) =>
    asset === 'money' && moneyName ? moneyName : t(locale, `export.asset.${asset}`);
  const status = (row: ExportCard) => {
    if (row.status === 1) return t(locale, 'export.status.used');
    if (row.status === 2) return t(locale, 'export.status.void');
    return t(locale, row.expired ? 'export.status.expired' : 'export.status.unused');
  };
  yield `\uFEFF${t(locale, 'export.cards.header')}\r\n`;
  for await (const page of exportCards(ctx.db, viewer, filter, now)) {
    let chunk = '';
    for (const row of page) {
      chunk += `${[
        row.card_no,
        row.card_pwd,
        assetLabel(row.asset),
        row.face_value,
        status(row),
        row.expire_at === null ? t(locale, 'export.never') : formatTime(row.expire_at),
        row.batch_no,
      ]
        .map(csvCell)
        .join(',')}\r\n`;
    }
    yield chunk;
  }
}
