// @vitest-environment node
/**
 * Digital-human time reads one way everywhere, exactly (docs/decisions.md "Digital-human time:
 * minutes and seconds, exact"), and is typed in the same minutes and seconds.
 */
import { createIntl } from 'react-intl';
import { describe, expect, test } from 'vitest';
import enUS from '../../src/i18n/en-US';
import type { MessageId } from '../../src/i18n/messages';
import zhCN from '../../src/i18n/zh-CN';
import { formatAmount } from '../../src/views/shared/amounts';
import { dhTimeForApi } from '../../src/machines/transfer';
import { formatDhTime } from '../../src/views/shared/dh-time';

const zh = createIntl({ locale: 'zh-CN', messages: zhCN });
const en = createIntl({ locale: 'en-US', messages: enUS });
const format = (intl: typeof zh) => (id: MessageId, values: Record<string, number>) =>
  intl.formatMessage({ id }, values);

describe('digital-human time', () => {
  test('exact minutes and seconds, with the sign of a change', () => {
    const t = format(en);
    expect(formatDhTime(t, 13)).toBe('13 s');
    expect(formatDhTime(t, 133)).toBe('2 min 13 s');
    expect(formatDhTime(t, 1800)).toBe('30 min');
    expect(formatDhTime(t, 0)).toBe('0 s');
    expect(formatDhTime(t, -13, true)).toBe('-13 s');
    expect(formatDhTime(t, -1, true)).toBe('-1 s');
    expect(formatDhTime(t, 61, true)).toBe('+1 min 1 s');
    expect(formatDhTime(format(zh), 133)).toBe('2 分 13 秒');
    expect(formatDhTime(format(zh), 5400)).toBe('90 分钟');
  });

  test('the ledger shows a 13 s charge and a 1 s one as they are', () => {
    expect(formatAmount(zh, 'digital_man', '-13', true)).toBe('-13 秒');
    expect(formatAmount(zh, 'digital_man', '-1', true)).toBe('-1 秒');
    expect(formatAmount(zh, 'digital_man', '7500')).toBe('125 分钟');
    expect(formatAmount(zh, 'money', '-0.2', true)).toBe('-0.20');
  });

  test('typed as minutes and seconds, sent as the API’s whole seconds', () => {
    expect(dhTimeForApi({ minutes: '2', seconds: '13' })).toEqual({ amount: '133' });
    expect(dhTimeForApi({ minutes: '', seconds: '45' })).toEqual({ amount: '45' });
    expect(dhTimeForApi({ minutes: '3', seconds: '' })).toEqual({ amount: '180' });
    for (const bad of [
      { minutes: '', seconds: '' },
      { minutes: '0', seconds: '0' },
      { minutes: '1', seconds: '60' },
      { minutes: '1.5', seconds: '' },
      { minutes: '-1', seconds: '' },
    ]) {
      expect(dhTimeForApi(bad)).toEqual({ error: 'property.dhTimeInvalid' });
    }
  });
});
