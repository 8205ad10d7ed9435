import type { AppContext } from '../../context';
import { refuse } from '../../platform/http/errors';
import { clearAttempts, releaseAttempt, reserveAttempt, type ThrottleRule } from './repo';

const MINUTE = 60_000;

/** docs/decisions.md "Sessions, login, sign-up". */
export const ACCOUNT_RULE: ThrottleRule = { limit: 5, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE };
export const IP_RULE: ThrottleRule = { limit: 20, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE };
/** Sign-up attempts (docs/decisions.md "Sessions, login, sign-up"). */
const REGISTER_IP_RULE: ThrottleRule = {
  limit: 10,
  windowMs: 15 * MINUTE,
  lockMs: 15 * MINUTE,
};
const REGISTER_MOBILE_RULE: ThrottleRule = {
  limit: 5,
  windowMs: 15 * MINUTE,
  lockMs: 15 * MINUTE,
};

export interface ThrottleKey {
  key: string;
  rule: ThrottleRule;
  /** A right password forgets all earlier failures of the key (accounts), or only takes back its own count (addresses). */
  clearOnSuccess: boolean;
}

/** Account names are matched as typed, but throttled case-insensitively. */
export const accountKey = (account: string): ThrottleKey => ({
  key: `account:${account.trim().toLowerCase()}`,
  rule: ACCOUNT_RULE,
  clearOnSuccess: true,
});
export const ipKey = (ip: string): ThrottleKey => ({
  key: `ip:${ip}`,
  rule: IP_RULE,
  clearOnSuccess: false,
});

/** Sign-up keys: an accepted sign-up takes back its own count, like a right password per address. */
export const registerIpKey = (ip: string): ThrottleKey => ({
  key: `register-ip:${ip}`,
  rule: REGISTER_IP_RULE,
  clearOnSuccess: false,
});
export const registerMobileKey = (mobile: string): ThrottleKey => ({
  key: `register-mobile:${mobile}`,
  rule: REGISTER_MOBILE_RULE,
  clearOnSuccess: false,
});

/**
 * Counts one password attempt against every key (all or none, in one transaction), or refuses
 * with "try again in N minutes" when a key is locked. Call `succeeded` when the password was right.
 */
export async function reserveAttempts(ctx: AppContext, keys: readonly ThrottleKey[]) {
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    let lockedUntil = 0;
    for (const { key, rule } of keys) {
      lockedUntil = Math.max(lockedUntil, (await reserveAttempt(trx, key, rule, now)) ?? 0);
    }
    if (lockedUntil > 0) {
      throw refuse('auth.throttled', {
        minutes: Math.max(1, Math.ceil((lockedUntil - now) / MINUTE)),
      });
    }
  });
  return {
    /** The password was right: forget the account's failures and take back the other counts. */
    async succeeded(): Promise<void> {
      await ctx.db.transaction().execute(async (trx) => {
        for (const { key, rule, clearOnSuccess } of keys) {
          if (clearOnSuccess) await clearAttempts(trx, key);
          else await releaseAttempt(trx, key, rule);
        }
      });
    },
  };
}
