import type { Account } from '../api/contract/dashboard';
import { formatUnits, parseAmount, type Asset } from '../api/contract/money';

/**
 * Values as people type them (amounts, digital-human time, a day), turned into the API's
 * (docs/architecture.md "Forms"): a dialog's machine checks its typed form with these and the
 * contract's schema. An error is a message id.
 */

/** Digital-human time typed as whole minutes and whole seconds (0–59), as it is shown. */
export interface DhTimeTyped {
  minutes: string;
  seconds: string;
}

/** What a person typed as the API's amount (money: 2 decimals at most; clones: a count). */
export function amountForApi(asset: Asset, typed: string): { amount: string } | { error: string } {
  const units = parseAmount(asset, typed);
  return typeof units === 'string' ? { error: units } : { amount: formatUnits(asset, units) };
}

/**
 * Digital-human minutes and seconds as the API's seconds. The shared contract's `parseAmount`
 * decides what passes, so the form refuses what the server would.
 */
export function dhTimeForApi(typed: DhTimeTyped): { amount: string } | { error: string } {
  const part = (text: string) =>
    text.trim() === '' ? 0 : /^\d{1,9}$/.test(text.trim()) ? Number(text) : Number.NaN;
  const min = part(typed.minutes);
  const sec = part(typed.seconds);
  if (!Number.isFinite(min) || !Number.isFinite(sec) || sec > 59) {
    return { error: 'property.dhTimeInvalid' };
  }
  const units = parseAmount('digital_man', String(min * 60 + sec));
  if (units === 'validation.quantity') return { error: 'property.dhTimeInvalid' };
  return typeof units === 'string'
    ? { error: units }
    : { amount: formatUnits('digital_man', units) };
}

/** An amount of the API (money "12.50", seconds, a count) in whole units (money in cents). */
export function apiUnits(asset: Asset, amount: string): number {
  if (asset !== 'money') return Number(amount);
  const [whole, fraction = ''] = amount.split('.');
  return Number(whole) * 100 + Number(`${fraction}00`.slice(0, 2));
}

/** The caller's balance of an asset in whole units (money in cents). */
export function balanceUnits(account: Account, asset: Asset): number {
  switch (asset) {
    case 'money':
      return apiUnits('money', account.money);
    case 'digital_man':
      return account.digital_man_seconds;
    case 'digital_voice':
      return account.voice_clone_count;
    default:
      return account.image_clone_count;
  }
}

/** The last millisecond of a day of the viewer's calendar ("YYYY-MM-DD"), or null. */
export function endOfDay(day: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return null;
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + 1).getTime() - 1;
}
