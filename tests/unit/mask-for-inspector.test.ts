// @vitest-environment node
import { describe, expect, test } from 'vitest';
import { MASK, maskForInspector } from '../../src/app/boot/mask-for-inspector';

describe('what the XState inspector is sent', () => {
  test('tokens, passwords, card passwords, secrets and codes are masked, at any depth', () => {
    const event = {
      type: 'LOGIN',
      account: 'admin',
      password: 'Demo@2026',
      nested: [{ card_no: 'C1', card_pwd: 'p1', cardPwd: 'p2' }],
      output: { userinfo: { token: 't0k3n', accountId: 1 } },
      body: { old_password: 'a', new_password: 'b', confirm_password: 'b', code: '123456' },
      secret: 'hmac',
      ticket: 'T1',
      sign: 'abc',
    };
    expect(maskForInspector(event)).toEqual({
      type: 'LOGIN',
      account: 'admin',
      password: MASK,
      nested: [{ card_no: 'C1', card_pwd: MASK, cardPwd: MASK }],
      output: { userinfo: { token: MASK, accountId: 1 } },
      body: { old_password: MASK, new_password: MASK, confirm_password: MASK, code: MASK },
      secret: MASK,
      ticket: MASK,
      sign: MASK,
    });
  });

  test('credentials in URLs are masked; everything else, and the input, stays as it was', () => {
    const context = {
      url: '/api/v1/recharge_card/export?ticket=abc123&lang=en',
      tokenKind: 'local',
      hasToken: true,
      code: 50008,
      when: new Date(0),
    };
    const masked = maskForInspector(context);
    expect(masked).toEqual({
      ...context,
      url: `/api/v1/recharge_card/export?ticket=${MASK}&lang=en`,
    });
    expect(masked.when).toBe(context.when);
    expect(context.url).toContain('abc123');
  });

  test('a context that refers to itself is copied once', () => {
    const context: Record<string, unknown> = { token: 'x' };
    context.self = context;
    const masked = maskForInspector(context);
    expect(masked.token).toBe(MASK);
    expect(masked.self).toBe(masked);
  });
});
