import { ReplyCode } from '../../../src/api/contract/envelope';
import type { MessageId, MessageParams } from '../i18n';

/**
 * A refusal the caller should read: rendered as `{code, msg}` in the caller's locale. Business and
 * validation refusals are HTTP 200 with code 0 (docs/decisions.md); auth failures set their status.
 */
export class AppError extends Error {
  constructor(
    readonly messageId: MessageId,
    readonly params: MessageParams = {},
    readonly httpStatus = 200,
    readonly code: number = ReplyCode.FAIL,
  ) {
    super(messageId);
    this.name = 'AppError';
  }
}

/** code 0, HTTP 200: a refusal shown to the user as a message. */
export const refuse = (id: MessageId, params?: MessageParams) => new AppError(id, params);

/** HTTP 401: no usable session (missing, unknown, expired or logged out). */
export const unauthenticated = () => new AppError('auth.loginExpired', {}, 401);

/** HTTP 403: the route's policy does not admit the caller. */
export const forbidden = () => new AppError('auth.noPermission', {}, 403);

/** HTTP 200, code 50008: the session was ended by someone else (password change, disable, admin). */
export const sessionEnded = (id: MessageId) => new AppError(id, {}, 200, ReplyCode.SESSION_ENDED);
