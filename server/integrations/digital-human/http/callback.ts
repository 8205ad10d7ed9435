import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { VendorCallback } from '../types';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from './protocol';

/**
 * A vendor callback's check (docs/digital-human-vendor.md "Callbacks"): the signature is
 * `sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>">` with DH_CALLBACK_SECRET, compared in
 * constant time, and the timestamp (unix seconds, signed with the body) must be within
 * `toleranceSeconds` of our clock, so a captured callback cannot be replayed later. A callback
 * only says "look again": the job's state is always read back from the vendor, so a replay inside
 * the window (or the vendor's duplicate) changes nothing.
 */
export function signCallbackBody(secret: string, timestamp: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`;
}

const callbackSchema = z.object({
  job_id: z.string().min(1).max(200),
  state: z.enum(['queued', 'running', 'done', 'failed']),
});

const headerOf = (
  headers: Readonly<Record<string, string | string[] | undefined>>,
  name: string,
) => {
  const value =
    headers[name] ?? headers[Object.keys(headers).find((k) => k.toLowerCase() === name) ?? ''];
  return Array.isArray(value) ? value[0] : value;
};

export function verifyCallback(
  secret: string,
  rawBody: string,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  nowMs: number,
  toleranceSeconds: number,
): VendorCallback | null {
  const timestamp = headerOf(headers, TIMESTAMP_HEADER);
  const signature = headerOf(headers, SIGNATURE_HEADER);
  if (!secret || !timestamp || !signature || !/^\d{1,12}$/.test(timestamp)) return null;
  const expected = Buffer.from(signCallbackBody(secret, timestamp, rawBody));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > toleranceSeconds) return null;
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return null;
  }
  const parsed = callbackSchema.safeParse(body);
  return parsed.success ? { vendorJobId: parsed.data.job_id, state: parsed.data.state } : null;
}
