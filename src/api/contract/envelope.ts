import { z } from 'zod';

export { ReplyCode, SERVER_LOGOUT_CODES } from './reply-codes';

export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

export const envelopeSchema = <T extends z.ZodType>(data: T) =>
  z.object({ code: z.number(), msg: z.string(), data });

/** A page of a list (DOMAIN.md §0). */
export interface Page<T> {
  list: T[];
  total: number;
}

export const pageQuery = z.strictObject({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
