/**
 * Amounts as people read and type them. The API speaks in balance units (money with 2 decimals,
 * digital-human SECONDS, clone counts); digital-human time reads, exactly, as minutes and seconds
 * ("2 分 13 秒", docs/decisions.md "Digital-human time") and is typed
 * in the same two parts. No floats touch money: strings and integer cents only.
 */
import type { Asset, ExchangeTarget } from '../../api/contract/money';
import type { SystemInfo } from '../../api/contract/system';
import type { UserInfo } from '../../api/contract/auth';
import type { IntlShape } from 'react-intl';
import type { MessageId } from '../../i18n/messages';
import type { ExchangeOption } from '../../machines/exchange';
import { formatDhTime } from './dh-time';

/** A money string with exactly 2 decimals ("12.5" → "12.50"); anything else as it is. */
export function formatMoney(text: string): string {
  const m = /^([-+]?)(\d+)(?:\.(\d*))?$/.exec(text.trim());
  if (!m) return text;
  return `${m[1] === '-' ? '-' : ''}${m[2]}.${(m[3] ?? '').padEnd(2, '0').slice(0, 2)}`;
}

/** An API amount of an asset as people read it; `signed` puts '+' before a gain. */
export function formatAmount(intl: IntlShape, asset: Asset, api: string, signed = false): string {
  if (asset === 'digital_man') {
    return formatDhTime((id, values) => intl.formatMessage({ id }, values), Number(api), signed);
  }
  const text = asset === 'money' ? formatMoney(api) : String(Number(api));
  return signed && !text.startsWith('-') && Number(api) !== 0 ? `+${text}` : text;
}

const OPTION: Record<ExchangeTarget, string> = {
  digital_man: '2',
  digital_voice: '3',
  image_clone: '4',
};

/**
 * The exchanges the platform offers (`money_recharge_exchange_config`, docs/domain.md §3: image clones
 * only when the list has 4) at the user's price, else the platform's (image clones: the platform's).
 */
export function exchangeOptions(
  info: Partial<SystemInfo> | null | undefined,
  user: Pick<
    UserInfo,
    'digital_man_money_exchange_num' | 'digital_voice_money_exchange_num'
  > | null,
): ExchangeOption[] {
  const enabled = (info?.money_recharge_exchange_config ?? '').split(',').map((s) => s.trim());
  const pick = (own: string | undefined, platform: string | undefined) => {
    const value = own?.trim() || platform?.trim() || '';
    return value === '' ? null : value;
  };
  const prices: Record<ExchangeTarget, string | null> = {
    digital_man: pick(user?.digital_man_money_exchange_num, info?.digital_man_money_exchange_num),
    digital_voice: pick(
      user?.digital_voice_money_exchange_num,
      info?.digital_voice_money_exchange_num,
    ),
    image_clone: pick(undefined, info?.image_clone_money_exchange_num),
  };
  return (Object.keys(OPTION) as ExchangeTarget[])
    .filter((asset) => enabled.includes(OPTION[asset]))
    .map((asset) => ({ asset, price: prices[asset] }));
}

/** The assets a user may transfer: admin all; others by their flags (digital-human also clones). */
export function transferableAssets(
  user: Pick<
    UserInfo,
    'user_type' | 'can_transfer_money' | 'can_transfer_digital_man' | 'can_transfer_digital_voice'
  > | null,
): Asset[] {
  if (!user) return [];
  if (user.user_type === 0) return ['money', 'digital_man', 'digital_voice', 'image_clone'];
  if (user.user_type !== 1) return [];
  const assets: Asset[] = [];
  if (user.can_transfer_money) assets.push('money');
  if (user.can_transfer_digital_man) assets.push('digital_man', 'image_clone');
  if (user.can_transfer_digital_voice) assets.push('digital_voice');
  return assets;
}

export const ASSET_LABEL: Record<Asset, MessageId> = {
  money: 'stats.money',
  digital_man: 'stats.digitalManTime',
  digital_voice: 'stats.voiceClones',
  image_clone: 'stats.imageClones',
};
