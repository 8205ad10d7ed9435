import { afterEach, expect, test } from 'vitest';
import { configureHttp, resetHttp } from '../../src/api/http';
import { payPageUrl } from '../../src/api/recharge';

afterEach(resetHttp);

test('the sandbox checkout link carries the console’s language and time zone', () => {
  configureHttp({ locale: () => 'zh-CN' });
  const url = new URL(payPageUrl('/api/v1/pay/sandbox/checkout?order_no=RO1&sign=ab'));
  expect(url.origin).toBe(window.location.origin);
  expect(Object.fromEntries(url.searchParams)).toEqual({
    order_no: 'RO1',
    sign: 'ab',
    lang: 'zh-CN',
    tz: Intl.DateTimeFormat().resolvedOptions().timeZone,
  });
});

test('a real provider’s absolute link is left as it is', () => {
  configureHttp({ locale: () => 'zh-CN' });
  const link = 'https://pay.example.com/checkout?id=1&sign=xyz';
  expect(payPageUrl(link)).toBe(link);
});
