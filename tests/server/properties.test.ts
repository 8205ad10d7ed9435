import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, createTestApp, engines, snapshot, type TestApp } from './helpers';

/** Any JSON value, biased towards objects with the call's own field names. */
const jsonish = (fields: string[]) =>
  fc.oneof(
    fc.jsonValue(),
    fc.dictionary(fc.constantFrom(...fields, 'extra'), fc.jsonValue(), { maxKeys: 5 }),
    fc.record(
      Object.fromEntries(
        fields.map((f) => [f, fc.oneof(fc.string({ maxLength: 200 }), fc.jsonValue())]),
      ),
    ),
  );

/**
 * 200 with `{code, msg}`; a JSON text with `__proto__` / `constructor.prototype` keys is refused
 * outright as 400 (prototype poisoning), still as `{code: 0, msg}`.
 */
function expectClientAnswer(
  body: unknown,
  reply: { status: number; body: { code: number; msg: string } },
) {
  const poisoned = /"(__proto__|constructor)"/.test(JSON.stringify(body) ?? '');
  expect(reply.status).toBe(poisoned && reply.status === 400 ? 400 : 200);
  expect(typeof reply.body.msg).toBe('string');
  if (reply.status === 400) expect(reply.body.code).toBe(0);
}

describe.each(engines)('properties on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(async () => {
    await t.close();
  });

  it('login never fails with 5xx and lets nobody in without the exact password', async () => {
    await fc.assert(
      fc.asyncProperty(jsonish(['account', 'password']), fc.ipV4(), async (body, ip) => {
        const reply = await t.call('POST', '/api/v1/platform/login', {
          body,
          remoteAddress: ip,
        });
        expectClientAnswer(body, reply);
        const exact =
          typeof body === 'object' &&
          body !== null &&
          !Array.isArray(body) &&
          Object.keys(body).length === 2 &&
          (body as Record<string, unknown>).password === DEMO_PASSWORD;
        if (!exact) expect(reply.body.code).toBe(0);
      }),
      { numRuns: 60 },
    );
  });

  it('change_pwd never fails with 5xx and never changes anything on a refused call', async () => {
    const token = await t.login('agent');
    const before = await snapshot(t.db, ['login_throttle']);
    await fc.assert(
      fc.asyncProperty(
        jsonish(['old_password', 'new_password', 'confirm_password']),
        async (body) => {
          const reply = await t.call('POST', '/api/v1/platform/change_pwd', { token, body });
          expectClientAnswer(body, reply);
          expect(reply.body.code).toBe(0);
        },
      ),
      { numRuns: 60 },
    );
    expect(await snapshot(t.db, ['login_throttle'])).toEqual(before);
  });
});
