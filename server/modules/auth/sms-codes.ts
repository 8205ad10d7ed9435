import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context';
import { IntegrationError } from '../../integrations/errors';
import type { Executor, SmsPurpose } from '../../platform/db/schema';
import { refuse } from '../../platform/http/errors';
import { isMessageId } from '../../platform/i18n';
import { findUserByMobile } from '../users';
import {
  deleteCode,
  insertCode,
  lastCodeSentAt,
  latestCode,
  markCodeUsed,
  reserveCodeTry,
} from './repo';

/** docs/decisions.md "Sessions, login, sign-up". */
const CODE_TTL_MS = 5 * 60_000;
const RESEND_AFTER_MS = 60_000;
const MAX_TRIES = 5;

/**
 * Codes are stored as a SHA-256 of mobile, purpose and code: a leaked table does not hand out
 * live codes directly, and the short life and 5 tries bound guessing.
 */
function hashCode(mobile: string, purpose: SmsPurpose, code: string): string {
  return createHash('sha256').update(`${mobile}:${purpose}:${code}`).digest('hex');
}

/**
 * Sends a 6-digit code, at most one per mobile per 60 s. A reset code for a mobile no account
 * uses is stored but never sent, so the reply (and the resend limit) look the same either way.
 */
export async function issueCode(
  ctx: AppContext,
  mobile: string,
  purpose: SmsPurpose,
): Promise<void> {
  const now = ctx.now();
  const last = await lastCodeSentAt(ctx.db, mobile);
  if (last !== undefined && now - last < RESEND_AFTER_MS) {
    throw refuse('sms.tooOften', { seconds: Math.ceil((RESEND_AFTER_MS - (now - last)) / 1000) });
  }
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const deliver = purpose === 'register' || !!(await findUserByMobile(ctx.db, mobile));
  const id = await insertCode(ctx.db, {
    mobile,
    purpose,
    code_hash: hashCode(mobile, purpose, deliver ? code : `undeliverable:${randomInt(1e9)}`),
    created_at: now,
    expires_at: now + CODE_TTL_MS,
  });
  if (!deliver) return;
  try {
    await ctx.integrations.sms.send({ mobile, purpose, code });
  } catch (error) {
    await deleteCode(ctx.db, id);
    // The gateway's failure, said in the caller's language (the code is withdrawn: ask again).
    if (!(error instanceof IntegrationError)) throw error;
    ctx.log.warn({ kind: error.kind, err: error.message }, 'sms send failed');
    throw refuse(isMessageId(error.reasonId) ? error.reasonId : 'sms.reason.unavailable');
  }
}

/**
 * Checks a code (each check uses one of its 5 tries, committed even when the call then fails).
 * Returns the code's id for `consumeCode` inside the caller's transaction.
 */
export async function checkCode(
  ctx: AppContext,
  mobile: string,
  purpose: SmsPurpose,
  code: string,
): Promise<number> {
  const row = await latestCode(ctx.db, mobile, purpose);
  if (!row || row.used_at !== null || ctx.now() >= row.expires_at) throw refuse('sms.badCode');
  if (!(await reserveCodeTry(ctx.db, row.id, MAX_TRIES))) throw refuse('sms.badCode');
  const expected = Buffer.from(row.code_hash, 'hex');
  const given = Buffer.from(hashCode(mobile, purpose, code), 'hex');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw refuse('sms.badCode');
  }
  return row.id;
}

/** Uses the code up; refuses when a racing request already did. */
export async function consumeCode(db: Executor, id: number, now: number): Promise<void> {
  if (!(await markCodeUsed(db, id, now))) throw refuse('sms.badCode');
}
