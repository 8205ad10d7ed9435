import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { multilineText, text } from '../../src/api/contract/text';
import type { RegisteredRoute } from '../../server/platform/http/policy';
import { createTestApp, engines, type TestApp } from './helpers';

const EN = { lang: 'en-US' };
const NUL = 'a\u0000b';
const RULE = 'Must not contain control characters (such as NUL)';

interface FieldSchema {
  type?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: FieldSchema[];
}

/**
 * The top-level fields of an input schema, whether each takes a string, and whether only from a
 * closed set (an enum or literals, which refuse anything else by their own message).
 */
function fieldsOf(schema: z.ZodType): [string, { string: boolean; closed: boolean }][] {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, FieldSchema>;
    anyOf?: { properties?: Record<string, FieldSchema> }[];
  };
  const properties = json.properties ?? json.anyOf?.find((s) => s.properties)?.properties ?? {};
  return Object.entries(properties).map(([name, field]) => {
    const options = field.anyOf ?? [field];
    const strings = options.filter((o) => o.type === 'string');
    return [
      name,
      { string: strings.length > 0, closed: strings.every((o) => !!o.enum || 'const' in o) },
    ];
  });
}

/** An account the route's policy admits (admin where it may, as the most powerful caller). */
function callerOf(route: RegisteredRoute): string | undefined {
  const { roles } = route.policy;
  if (roles === 'public') return undefined;
  if (roles === 'any' || roles.includes('admin')) return 'admin';
  return roles[0];
}

describe.each(engines)('control characters in any input on %s', (engine) => {
  let t: TestApp;
  const tokens = new Map<string, string>();
  beforeAll(async () => {
    t = await createTestApp(engine);
    for (const account of ['admin', 'partner', 'merchant', 'agent']) {
      tokens.set(account, await t.login(account));
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('every body and query field of every route refuses NUL with the envelope, never a 500', async () => {
    let stringFields = 0;
    const wrong: string[] = [];
    const routes = t.app.apiRoutes.filter((r) => r.body || r.query);
    expect(routes.length).toBeGreaterThan(40);
    for (const route of routes) {
      const caller = callerOf(route);
      const token = caller ? tokens.get(caller) : undefined;
      for (const [where, schema] of [
        ['body', route.body],
        ['query', route.query],
      ] as const) {
        if (!schema) continue;
        for (const [field, kind] of fieldsOf(schema)) {
          const name = `${route.method} ${route.url} ${where}.${field}`;
          const reply = await t.call(route.method as 'GET' | 'POST', route.url, {
            token,
            headers: { ...EN, 'idempotency-key': `nul-test-${field}-0001` },
            ...(where === 'body' ? { body: { [field]: NUL } } : { query: { [field]: NUL } }),
          });
          if (reply.status >= 500 || reply.body?.code !== 0) {
            wrong.push(`${name}: HTTP ${reply.status} ${reply.raw}`);
          } else if (kind.string && !kind.closed) {
            stringFields += 1;
            if (reply.body.msg !== `${field}: ${RULE}`) wrong.push(`${name}: ${reply.body.msg}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(stringFields).toBeGreaterThan(29);
  });

  it('names the rule in the caller’s language, also for other control characters', async () => {
    const login = (account: string, headers = EN) =>
      t.call('POST', '/api/v1/platform/login', {
        body: { account, password: 'x' },
        headers,
      });
    for (const char of ['\u0000', '\u0001', '\u0007', '\u001b', '\u001f', '\n', '\t']) {
      const reply = await login(`adm${char}in`);
      expect(reply.body, JSON.stringify(char)).toEqual({
        code: 0,
        msg: `account: ${RULE}`,
        data: null,
      });
    }
    expect((await login('adm\u0000in', { lang: 'zh-CN' })).body.msg).toBe(
      'account：不能包含控制字符（如 NUL）',
    );
    expect((await login('admin\u007f')).body.msg).toBe('Wrong account or password');
  });

  it('keeps line breaks and tabs in multi-line fields only', async () => {
    const admin = tokens.get('admin')!;
    const intro = await t.post(
      '/platform/edit_profile',
      { introduction: 'one\ntwo\r\n\tthree' },
      admin,
    );
    expect(intro.body.code).toBe(1);
    const nickname = await t.call('POST', '/api/v1/platform/edit_profile', {
      token: admin,
      body: { nickname: 'one\ntwo' },
      headers: EN,
    });
    expect(nickname.body.msg).toBe(`nickname: ${RULE}`);
    const nul = await t.call('POST', '/api/v1/platform/edit_profile', {
      token: admin,
      body: { introduction: 'one\u0000two' },
      headers: EN,
    });
    expect(nul.body.msg).toBe(`introduction: ${RULE}`);
  });
});

describe('the contract’s text rule', () => {
  it('refuses every C0 control character in single-line text, and all but tab/CR/LF in multi-line', () => {
    for (let code = 0; code < 0x20; code += 1) {
      const value = `a${String.fromCharCode(code)}b`;
      expect(text().safeParse(value).success, `U+${code}`).toBe(false);
      const lineBreak = code === 9 || code === 10 || code === 13;
      expect(multilineText().safeParse(value).success, `U+${code}`).toBe(lineBreak);
    }
    expect(text().safeParse('中文 ok ~').success).toBe(true);
  });
});
