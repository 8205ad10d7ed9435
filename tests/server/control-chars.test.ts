import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { displayName, multilineText, text } from '../../src/api/contract/text';
import type { RegisteredRoute } from '../../server/platform/http/policy';
import { api, createTestApp, engines, snapshot, type TestApp } from './helpers';
import { fixtureBytes } from './media-fixtures';
import { uploadBytes } from './upload-helpers';

const EN = { lang: 'en-US' };
const NUL = 'a\u0000b';
const RULE = 'Must not contain control characters (such as NUL)';
const NAME_RULE =
  'Must not contain invisible characters (such as text-direction marks or zero-width spaces)';
/** A right-to-left override: shows `evil<RLO>gpj.mp4` as `evilmp4.jpg`. */
const RLO = 'evil\u202Egpj.mp4';

/** A display name's field: `name`, `nickname`, `title` or `…_name` (remarks are notes, not names). */
const NAME_FIELD = /^(name|nickname|title)$|_name$/;
/** Fields so named that are no display name: search filters (a part of what is looked for). */
const NOT_NAMES = [
  'GET /api/v1/recharge_package/list query.name',
  // The name of a secret field (an identifier from a fixed list), not a display name.
  'POST /api/v1/integration/set_secret body.name',
  'POST /api/v1/integration/clear_secret body.name',
];
/** Every display name a caller sends: the walk below must find exactly these. */
const DISPLAY_NAMES = [
  'GET /api/v1/upload/generate_sts_token query.name',
  'POST /api/v1/ai_tool/add body.name',
  'POST /api/v1/ai_tool/edit body.name',
  'POST /api/v1/article/add body.title',
  'POST /api/v1/article/edit body.title',
  'POST /api/v1/digital_human/image_clone_add body.name',
  'POST /api/v1/digital_human/template_add body.name',
  'POST /api/v1/digital_human/template_edit body.name',
  'POST /api/v1/digital_human/template_from_video body.name',
  'POST /api/v1/digital_human/video_add body.name',
  'POST /api/v1/digital_human/video_estimate body.name',
  'POST /api/v1/digital_human/video_rename body.name',
  'POST /api/v1/digital_human/voice_clone_add body.name',
  'POST /api/v1/domain/add body.money_name',
  'POST /api/v1/domain/add body.name',
  'POST /api/v1/domain/edit body.money_name',
  'POST /api/v1/domain/edit body.name',
  'POST /api/v1/industry/add body.name',
  'POST /api/v1/industry/edit body.name',
  'POST /api/v1/matrix/account_add_assisted body.nickname',
  'POST /api/v1/matrix/account_group_add body.name',
  'POST /api/v1/matrix/account_group_edit body.name',
  'POST /api/v1/matrix/ai_imitate_title body.title',
  'POST /api/v1/matrix/plan_add body.name',
  'POST /api/v1/matrix/plan_edit body.name',
  'POST /api/v1/matrix/plan_preview body.name',
  'POST /api/v1/platform/edit_profile body.nickname',
  'POST /api/v1/provider_service/add body.name',
  'POST /api/v1/provider_service/add body.nickname',
  'POST /api/v1/provider_service/add_by_service body.name',
  'POST /api/v1/provider_service/add_by_service body.nickname',
  'POST /api/v1/provider_service/edit body.name',
  'POST /api/v1/provider_service/edit body.nickname',
  'POST /api/v1/provider_service/edit_by_service body.name',
  'POST /api/v1/provider_service/edit_by_service body.nickname',
  'POST /api/v1/recharge_package/add body.name',
  'POST /api/v1/recharge_package/edit body.name',
  'POST /api/v1/resource/add body.name',
  'POST /api/v1/resource/edit body.name',
  'POST /api/v1/resource/group_add body.name',
  'POST /api/v1/resource/group_edit body.name',
  'POST /api/v1/video_task/add body.name',
  'POST /api/v1/video_task/batch_add body.name',
  'POST /api/v1/video_task/batch_estimate body.name',
  'POST /api/v1/video_task/estimate body.name',
  'POST /api/v1/video_task/preview body.name',
  'POST /api/v1/video_task_preset/save body.name',
];

interface FieldSchema {
  type?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: FieldSchema[];
}

interface ObjectSchema {
  properties?: Record<string, FieldSchema>;
  anyOf?: ObjectSchema[];
  oneOf?: ObjectSchema[];
}

/**
 * Each shape an input schema accepts (a union's options, a discriminated union's kinds): its
 * fields, and the fixed values (a `kind`) that select it.
 */
function shapesOf(schema: z.ZodType): { fields: string[]; selector: Record<string, unknown> }[] {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as ObjectSchema;
  const options = json.properties ? [json] : [...(json.anyOf ?? []), ...(json.oneOf ?? [])];
  return options
    .filter((o) => o.properties)
    .map((o) => {
      const entries = Object.entries(o.properties!);
      const selector = Object.fromEntries(
        entries.filter(([, f]) => 'const' in f).map(([name, f]) => [name, f.const]),
      );
      return { fields: entries.map(([name]) => name), selector };
    });
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

  it('every display name refuses a bidi override with the name rule, never a 500', async () => {
    const before = await snapshot(t.db, ['sessions']);
    const found = new Set<string>();
    const wrong: string[] = [];
    for (const route of t.app.apiRoutes) {
      const caller = callerOf(route);
      const token = caller ? tokens.get(caller) : undefined;
      for (const [where, schema] of [
        ['body', route.body],
        ['query', route.query],
      ] as const) {
        if (!schema) continue;
        for (const { fields, selector } of shapesOf(schema)) {
          for (const field of fields.filter((f) => NAME_FIELD.test(f))) {
            const name = `${route.method} ${route.url} ${where}.${field}`;
            if (NOT_NAMES.includes(name)) continue;
            found.add(name);
            const input = { ...selector, [field]: RLO } as Record<string, string>;
            const reply = await t.call(route.method as 'GET' | 'POST', route.url, {
              token,
              headers: { ...EN, 'idempotency-key': `rlo-test-${field}-0001` },
              ...(where === 'body' ? { body: input } : { query: input }),
            });
            if (reply.status >= 500 || reply.body?.code !== 0) {
              wrong.push(`${name}: HTTP ${reply.status} ${reply.raw}`);
            } else if (reply.body.msg !== `${field}: ${NAME_RULE}`) {
              wrong.push(`${name}: ${reply.body.msg}`);
            }
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    expect([...found].sort()).toEqual(DISPLAY_NAMES);
    // Every filter listed as no name is still there (the list does not go stale).
    const routes = new Set(t.app.apiRoutes.map((r) => `${r.method} ${r.url}`));
    for (const filter of NOT_NAMES)
      expect(routes).toContain(filter.split(' ').slice(0, 2).join(' '));
    expect(await snapshot(t.db, ['sessions'])).toEqual(before);
  });

  it('a resource named with hidden characters is refused and the upload stays unused', async () => {
    const merchant = tokens.get('merchant')!;
    const key = await uploadBytes(
      t,
      merchant,
      'image',
      'photo.png',
      await fixtureBytes('photo.png'),
    );
    const add = (name: string, headers = EN) =>
      t.call('POST', api('/resource/add'), {
        token: merchant,
        body: { upload_key: key, name },
        headers,
      });
    const hidden = ['\u202E', '\u202D', '\u2066', '\u200B', '\u200D', '\uFEFF', '\u00AD'];
    for (const char of [...hidden, '\u0085', '\u007F', '\u2028']) {
      const reply = await add(`photo${char}gnp.png`);
      expect(reply.body, JSON.stringify(char)).toEqual({
        code: 0,
        msg: `name: ${NAME_RULE}`,
        data: null,
      });
    }
    expect((await add(RLO, { lang: 'zh-CN' })).body.msg).toBe(
      'name：不能包含不可见字符（如文字方向控制符、零宽字符）',
    );
    const resources = () => t.db.selectFrom('resources').select('id').execute();
    expect(await resources()).toEqual([]);
    const upload = () =>
      t.db.selectFrom('uploads').select('state').where('upload_key', '=', key).executeTakeFirst();
    expect(await upload()).toEqual({ state: 'uploaded' });
    // The same upload with a visible name (trimmed) becomes the resource.
    const named = await add('  春季 photo é 🎬  ');
    expect(named.body).toMatchObject({ code: 1, data: { name: '春季 photo é 🎬' } });
    expect(await upload()).toEqual({ state: 'used' });
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

describe('the contract’s display name rule', () => {
  it('refuses control, format and line-separator characters anywhere, trims, keeps its limits', () => {
    const rule = displayName({ max: 10 });
    const refused = (value: string) => rule.safeParse(value).error?.issues.map((i) => i.message);
    for (let code = 0; code <= 0x10ffff; code += 1) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const char = String.fromCodePoint(code);
      if (/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(char)) {
        expect(refused(`a${char}b`), `U+${code.toString(16)}`).toContain('validation.nameChars');
      }
    }
    expect(rule.parse('  中文 é 🎬  ')).toBe('中文 é 🎬');
    expect(refused('   ')).toEqual(['validation.invalid']);
    expect(refused('a'.repeat(11))).toEqual(['validation.invalid']);
    expect(rule.parse(` ${'a'.repeat(10)} `)).toBe('a'.repeat(10));
    const optional = displayName({ max: 3, tooLong: 'validation.tooLong', allowEmpty: true });
    expect(optional.parse(' ')).toBe('');
    expect(optional.safeParse('abcd').error?.issues[0].message).toBe('validation.tooLong');
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
