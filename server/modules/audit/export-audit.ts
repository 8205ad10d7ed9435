import { Readable } from 'node:stream';
import type { AuditExportParams, AuditFilter, AuditRow } from '../../../src/api/contract/audit';
import type { ExportTicketReply } from '../../../src/api/contract/cards';
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
import { findUserById } from '../users';
import { exportAudit, type AuditViewer } from './repo';

const KIND = 'audit';
/** The console's calendar: Asia/Shanghai, UTC+8, no DST (docs/domain.md). */
const DAY_OFFSET = 8 * 3_600_000;

interface ExportQuery {
  filter: AuditFilter;
  locale: Locale;
}

/**
 * POST /audit/export_ticket: a single-use download ticket (server/platform/http/download-tickets.ts)
 * bound to the caller and the filters; audited (`audit.export`) with the filters asked for.
 */
export async function auditExportTicket(
  ctx: AppContext,
  auth: AuthContext,
  body: AuditExportParams,
  locale: Locale,
  audit: AuditTrail,
): Promise<ExportTicketReply> {
  const now = ctx.now();
  audit.change(null, body);
  const query: ExportQuery = { filter: body, locale };
  const { ticket, expiresAt } = await runInTransaction(
    ctx.db,
    (trx) => issueDownloadTicket(trx, { userId: auth.user.id, kind: KIND, query, now }),
    { audit },
  );
  return {
    ticket,
    expires_at: expiresAt,
    url: `${API_PREFIX}/audit/export_data?ticket=${ticket}`,
  };
}

/**
 * GET /audit/export_data: spends the ticket, checks its user again (still normal, still an admin or
 * a partner: the scope is the user's now) and streams the CSV of the bound filters.
 */
export async function auditExportData(
  ctx: AppContext,
  ticket: string,
  langHeader: Locale | undefined,
): Promise<{ filename: string; stream: Readable }> {
  const now = ctx.now();
  const spent = await spendDownloadTicket<ExportQuery>(ctx.db, ticket, KIND, now);
  const user = await findUserById(ctx.db, spent.userId);
  if (!user || user.status !== USER_STATUS.normal) throw ticketRefused();
  const role = roleOf(user.user_type);
  if (role !== 'admin' && role !== 'partner') throw ticketRefused();
  const locale = langHeader ?? spent.query.locale;
  return {
    filename: `audit-${new Date(now + DAY_OFFSET).toISOString().slice(0, 10)}.csv`,
    stream: Readable.from(auditCsv(ctx, { role, id: user.id }, spent.query.filter, locale)),
  };
}

const formatTime = (ms: number) =>
  new Date(ms + DAY_OFFSET).toISOString().slice(0, 19).replace('T', ' ');

const valueText = (value: unknown) =>
  value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);

/** A row's diff in one cell: `field: before → after`, a secret `field: changed`. */
function changesText(row: AuditRow, locale: Locale): string {
  return Object.entries(row.diff)
    .map(([field, change]) => {
      if (change === 'changed') return `${field}: ${t(locale, 'export.audit.changed')}`;
      if (!('before' in change)) return `${field}: → ${valueText(change.after)}`;
      if (!('after' in change)) return `${field}: ${valueText(change.before)} →`;
      return `${field}: ${valueText(change.before)} → ${valueText(change.after)}`;
    })
    .join('; ');
}

/**
 * The CSV of an export: a byte-order mark (so Excel reads UTF-8, Chinese included), the header
 * row in the locale, then one chunk per page of rows read from the database: an export of any
 * size holds one page in memory. The rows are read as the list reads them (secrets "changed").
 */
export async function* auditCsv(
  ctx: AppContext,
  viewer: AuditViewer,
  filter: AuditFilter,
  locale: Locale,
): AsyncGenerator<string> {
  yield `\uFEFF${t(locale, 'export.audit.header')}\r\n`;
  for await (const page of exportAudit(ctx.db, viewer, filter)) {
    let chunk = '';
    for (const row of page) {
      chunk += `${[
        formatTime(row.created_at),
        row.actor_username ?? '',
        row.actor_id === null ? '' : String(row.actor_id),
        row.actor_role ? t(locale, `export.audit.role.${row.actor_role}`) : '',
        row.original_actor_username ?? '',
        row.action,
        row.resource_type,
        row.resource_ids.join(' '),
        t(locale, row.result === 'ok' ? 'export.audit.ok' : 'export.audit.refused'),
        row.error_code ?? '',
        row.ip ?? '',
        changesText(row, locale),
      ]
        .map(csvCell)
        .join(',')}\r\n`;
    }
    yield chunk;
  }
}
