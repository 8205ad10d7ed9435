// No zod here: the console's first page imports these (through http.ts) and zod loads later.

/** Reply codes of docs/domain.md §15–16. Anything but SUCCESS is a failure whose `msg` is shown to the user. */
export const ReplyCode = {
  SUCCESS: 1,
  FAIL: 0,
  /** Session ended by an administrator, a password change or an account disable. */
  SESSION_ENDED: 50008,
  /** Logged in elsewhere (kept for spec parity; the server does not send it today). */
  OTHER_CLIENT: 50012,
  /** Token expired (kept for spec parity; the server answers HTTP 401 instead). */
  TOKEN_EXPIRED: 50014,
} as const;

export const SERVER_LOGOUT_CODES: readonly number[] = [
  ReplyCode.SESSION_ENDED,
  ReplyCode.OTHER_CLIENT,
  ReplyCode.TOKEN_EXPIRED,
];
