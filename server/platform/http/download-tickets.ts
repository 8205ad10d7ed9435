import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { LOCALES, type Locale } from '../../../src/api/contract/messages';
import type { Executor } from '../db/schema';
import { AppError } from './errors';

/**
 * Download tickets (docs/architecture.md §Downloads): a CSV export is a POST that binds a random
 * 256-bit ticket to the caller and its query (only the ticket's SHA-256 is stored), then a GET of
 * `…?ticket=` that spends it once within {@link DOWNLOAD_TICKET_MS}. The browser opens that URL
 * itself and streams the file, so no session token is ever in a URL; a changed ticket matches no
 * hash, an old one is past its expiry: both answer 410.
 */
export const DOWNLOAD_TICKET_MS = 60_000;

const hashTicket = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

/** A new ticket of `kind` for `userId` and `query`, written in `trx` (the caller's transaction). */
export async function issueDownloadTicket(
  trx: Executor,
  ticket: { userId: number; kind: string; query: unknown; now: number },
): Promise<{ ticket: string; expiresAt: number }> {
  const value = randomBytes(32).toString('base64url');
  const expiresAt = ticket.now + DOWNLOAD_TICKET_MS;
  // Tickets are worth nothing a minute after they were made: forget old ones.
  await trx
    .deleteFrom('download_tickets')
    .where('expires_at', '<', ticket.now - 3_600_000)
    .execute();
  await trx
    .insertInto('download_tickets')
    .values({
      ticket_hash: hashTicket(value),
      user_id: ticket.userId,
      kind: ticket.kind,
      query: JSON.stringify(ticket.query),
      created_at: ticket.now,
      expires_at: expiresAt,
      used_at: null,
    })
    .execute();
  return { ticket: value, expiresAt };
}

/** HTTP 410: the download link is spent (used, expired, unknown, or its user is gone). */
export const ticketRefused = () => new AppError('export.ticketInvalid', {}, 410);

/**
 * Spends a ticket of `kind` (a conditional update, so it works once): its user and the query it
 * was bound to, or a 410 refusal.
 */
export async function spendDownloadTicket<Q>(
  db: Executor,
  ticket: string,
  kind: string,
  now: number,
): Promise<{ userId: number; query: Q }> {
  const spent = await db
    .updateTable('download_tickets')
    .set({ used_at: now })
    .where('ticket_hash', '=', hashTicket(ticket))
    .where('kind', '=', kind)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id', 'query'])
    .executeTakeFirst();
  if (!spent) throw ticketRefused();
  return { userId: Number(spent.user_id), query: JSON.parse(spent.query) as Q };
}

const CSV_RISKY = /^[=+\-@\t\r]/;
/** One CSV cell: quoted when needed; a leading formula character defused for spreadsheets. */
export function csvCell(value: string): string {
  const text = CSV_RISKY.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * Sends a ticket's CSV: `make` is given the locale the request names in its `lang` header, if
 * any (a link the browser opens carries none: the ticket's own locale then).
 */
export async function sendCsvDownload(
  request: FastifyRequest,
  reply: FastifyReply,
  make: (explicit: Locale | undefined) => Promise<{ filename: string; stream: Readable }>,
) {
  const lang = request.headers['lang'];
  const explicit =
    typeof lang === 'string'
      ? LOCALES.find((l) => l.toLowerCase() === lang.trim().toLowerCase())
      : undefined;
  const { filename, stream } = await make(explicit);
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'no-store')
    .send(stream);
}
