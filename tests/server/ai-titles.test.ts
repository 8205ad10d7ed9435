import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IMITATE_TITLE_MAX,
  TITLE_LIMITS,
  titleLength,
  type ImitateTitleReply,
} from '../../src/api/contract/ai-text';
import { SOCIAL_PLATFORMS } from '../../src/api/contract/matrix';
import { imitateTitlesLocally } from '../../server/integrations/ai-text/embedded/titles';
import { IntegrationError, type IntegrationErrorKind } from '../../server/integrations/errors';
import type { AiTextProvider } from '../../server/integrations/ai-text';
import { api, createTestApp, engines, type TestApp } from './helpers';

/**
 * `POST /matrix/ai_imitate_title`: partners and merchants get `count` distinct titles in the
 * manner of theirs, within the platform's limit, the same for the same input; the embedded
 * generator's are labelled demonstration output. Bad input and provider failures are localised
 * refusals (code 0), never a 5xx.
 */
const EN = { lang: 'en-US' };
const ZH = { lang: 'zh-CN' };

const keyOf = (title: string) => title.toLowerCase().replace(/\s+/g, ' ').trim();

/** Every title distinct, within the limit, not the input, one line without emoji. */
function expectGood(titles: string[], input: string, count: number, limit: number) {
  expect(titles).toHaveLength(count);
  expect(new Set(titles.map(keyOf)).size, titles.join(' / ')).toBe(count);
  for (const title of titles) {
    expect(titleLength(title), title).toBeLessThanOrEqual(limit);
    expect(title.trim(), title).toBe(title);
    expect(title, title).not.toBe('');
    expect(keyOf(title)).not.toBe(keyOf(input));
    expect(title).not.toMatch(/[\p{Cc}\p{Cf}\p{Extended_Pictographic}]/u);
  }
}

describe.each(engines)('AI titles on %s', (engine) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp(engine);
    for (const who of ['admin', 'partner', 'merchant', 'agent']) tokens[who] = await t.login(who);
  });
  afterAll(async () => {
    await t?.close();
  });

  const imitate = (body: unknown, who = 'merchant', headers = EN) =>
    t.call<ImitateTitleReply>('POST', api('/matrix/ai_imitate_title'), {
      token: tokens[who],
      body,
      headers,
    });

  it('gives count distinct titles within each platform’s limit, labelled demonstration', async () => {
    const title = '3个技巧，让你的短视频播放量翻倍';
    for (const platform of SOCIAL_PLATFORMS) {
      for (const count of [1, 4, IMITATE_TITLE_MAX]) {
        const reply = await imitate({ title, count, platform });
        expect(reply.status).toBe(200);
        expect(reply.body.code, reply.raw).toBe(1);
        expect(reply.body.data.demonstration).toBe(true);
        expectGood(reply.body.data.titles, title, count, TITLE_LIMITS[platform]);
      }
    }
    // Without a platform: Douyin's limit.
    const reply = await imitate({ title: 'How to cook perfect rice every single time', count: 10 });
    expect(reply.body.code, reply.raw).toBe(1);
    expectGood(reply.body.data.titles, 'How to cook perfect rice', 10, TITLE_LIMITS.douyin);
  });

  it('is deterministic for the same input and differs for another', async () => {
    const body = { title: '夏天必备的5款防晒霜，太好用了', count: 6, platform: 'xiaohongshu' };
    const first = await imitate(body, 'merchant');
    const again = await imitate(body, 'partner', ZH);
    expect(first.body.data.titles).toEqual(again.body.data.titles);
    const other = await imitate({ ...body, title: '新手学做饭的简单技巧' });
    expect(other.body.data.titles).not.toEqual(first.body.data.titles);
    expect(other.body.data.titles.filter((x) => first.body.data.titles.includes(x))).toEqual([]);
    // The title is trimmed first: surrounding spaces change nothing.
    const padded = await imitate({ ...body, title: `  ${body.title}  ` });
    expect(padded.body.data.titles).toEqual(first.body.data.titles);
  });

  it('refuses admin and agent', async () => {
    for (const who of ['admin', 'agent']) {
      const reply = await imitate({ title: '好标题', count: 3 }, who);
      expect(reply.status, who).toBe(403);
      expect(reply.body).toMatchObject({
        code: 0,
        msg: 'You do not have permission for this action',
      });
    }
  });

  it('refuses bad input with a localised message, in zh-CN and en-US, never a 5xx', async () => {
    const cases: [unknown, string, string][] = [
      [
        { title: '好标题', count: 0 },
        'Number of titles: a whole number from 1 to 10',
        '标题数量须为 1–10 的整数',
      ],
      [
        { title: '好标题', count: 11 },
        'Number of titles: a whole number from 1 to 10',
        '标题数量须为 1–10 的整数',
      ],
      [
        { title: '好标题', count: 2.5 },
        'Number of titles: a whole number from 1 to 10',
        '标题数量须为 1–10 的整数',
      ],
      [
        { title: '好标题', count: '3' },
        'Number of titles: a whole number from 1 to 10',
        '标题数量须为 1–10 的整数',
      ],
      [
        { title: '好标题' },
        'Number of titles: a whole number from 1 to 10',
        '标题数量须为 1–10 的整数',
      ],
      [{ title: '', count: 3 }, 'Title: 1 to 100 characters', '标题为 1–100 个字符'],
      [{ title: '    ', count: 3 }, 'Title: 1 to 100 characters', '标题为 1–100 个字符'],
      [{ title: 'x'.repeat(101), count: 3 }, 'Title: 1 to 100 characters', '标题为 1–100 个字符'],
      [{ count: 3 }, 'Title: 1 to 100 characters', '标题为 1–100 个字符'],
      [
        { title: 'a\u0000b', count: 3 },
        'Must not contain control characters (such as NUL)',
        '不能包含控制字符（如 NUL）',
      ],
      [
        { title: 'a\u0007b', count: 3 },
        'Must not contain control characters (such as NUL)',
        '不能包含控制字符（如 NUL）',
      ],
      [
        { title: '好标题', count: 3, platform: 'weibo' },
        'Choose a platform: Douyin, Kuaishou, Xiaohongshu or WeChat Channels',
        '请选择平台：抖音、快手、小红书或视频号',
      ],
      [{ title: '好标题', count: 3, extra: 1 }, 'Unknown field', '未知字段'],
    ];
    for (const [body, en, zh] of cases) {
      const english = await imitate(body, 'merchant', EN);
      expect(english.status, JSON.stringify(body)).toBe(200);
      expect(english.body.code, english.raw).toBe(0);
      expect(english.body.msg, JSON.stringify(body)).toContain(en);
      const chinese = await imitate(body, 'partner', ZH);
      expect(chinese.status).toBe(200);
      expect(chinese.body.code, chinese.raw).toBe(0);
      if (zh) expect(chinese.body.msg, JSON.stringify(body)).toContain(zh);
      expect(chinese.body.msg).not.toBe(english.body.msg);
    }
  });
});

describe('AI titles when the provider fails', () => {
  let t: TestApp;
  let token: string;
  let failure: IntegrationError;
  const failing: AiTextProvider = {
    name: 'openai',
    demonstration: false,
    imitateTitles: async () => {
      throw failure;
    },
    complete: async () => {
      throw failure;
    },
  };
  beforeAll(async () => {
    t = await createTestApp('sqlite', { integrations: { aiText: failing } });
    token = await t.login('merchant');
  });
  afterAll(async () => {
    await t?.close();
  });

  const fail = (kind: IntegrationErrorKind, reasonId: string, params = {}) => {
    failure = new IntegrationError('the service said no', kind, reasonId, params);
  };
  const call = (headers: Record<string, string>) =>
    t.call('POST', api('/matrix/ai_imitate_title'), {
      token,
      body: { title: '好标题', count: 3 },
      headers,
    });

  it('answers a localised refusal: try again later, set the key, or why', async () => {
    const cases: [IntegrationErrorKind, string, object, string, string][] = [
      ['transient', 'aiText.reason.unavailable', {}, 'try again later', '请稍后重试'],
      ['reauthorize', 'aiText.reason.keyRefused', {}, 'administrator', '管理员'],
      ['reauthorize', 'aiText.reason.notConfigured', {}, 'not set up', '尚未配置'],
      ['permanent', 'aiText.reason.tooFewTitles', { got: 1, count: 3 }, '1 of 3', '1/3'],
      // An id the server does not know: the generic "try again later".
      ['transient', 'no.such.message', {}, 'try again later', '请稍后重试'],
    ];
    for (const [kind, reasonId, params, en, zh] of cases) {
      fail(kind, reasonId, params);
      const english = await call(EN);
      expect(english.status).toBe(200);
      expect(english.body).toMatchObject({ code: 0 });
      expect(english.body.msg).toContain(en);
      expect(english.raw).not.toContain('the service said no');
      const chinese = await call(ZH);
      expect(chinese.body).toMatchObject({ code: 0 });
      expect(chinese.body.msg).toContain(zh);
    }
  });
});

describe('the embedded title generator', () => {
  /** A small PRNG so that the "random" titles are the same in every run. */
  function prng(seed: number) {
    return () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
  }
  const random = prng(42);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const ZH_WORDS = [
    '新手',
    '做饭',
    '技巧',
    '夏天',
    '防晒霜',
    '视频',
    '涨粉',
    '的',
    '5款',
    '简单',
    '旅行',
    '攻略',
    '猫咪',
    '减脂',
    '早餐',
    '一周',
    '穿搭',
    '学会',
    '原来',
    '太绝了',
    '，',
    '！',
    '？',
    '手机',
    '拍照',
  ];
  const EN_WORDS = [
    'how',
    'to',
    'cook',
    'rice',
    'tips',
    'for',
    'better',
    'sleep',
    'easy',
    'home',
    'workout',
    'best',
    'budget',
    'travel',
    'guide',
    'my',
    'morning',
    'routine',
    '5',
    'ways',
    'video',
    '!',
    '?',
    'Paris',
    'iPhone',
    'supercalifragilisticexpialidocious',
  ];

  function randomTitle(): string {
    const kind = random();
    if (kind < 0.45) {
      const n = 1 + Math.floor(random() * 12);
      return Array.from({ length: n }, () => pick(ZH_WORDS)).join('');
    }
    if (kind < 0.9) {
      const n = 1 + Math.floor(random() * 12);
      return Array.from({ length: n }, () => pick(EN_WORDS)).join(' ');
    }
    // Odd ones: punctuation only, emoji, one long word, a hundred characters.
    return pick([
      '!!!',
      '🔥🔥🔥 好物',
      '？',
      'a',
      'x'.repeat(100),
      '字'.repeat(100),
      '3个技巧',
      'Pro tip: 3 tips',
    ]);
  }

  it('always gives count distinct titles within the limit (200 titles × counts 1–10)', () => {
    for (let i = 0; i < 200; i++) {
      const title = randomTitle().trim() || 'a';
      const platform = pick(SOCIAL_PLATFORMS);
      const maxLength = TITLE_LIMITS[platform];
      for (let count = 1; count <= IMITATE_TITLE_MAX; count++) {
        const titles = imitateTitlesLocally({ title, count, maxLength, platform });
        expectGood(titles, title, count, maxLength);
      }
    }
  });

  it('is deterministic, and asking for more keeps the first ones', () => {
    const input = {
      title: '新手学做饭的简单技巧',
      count: 10,
      maxLength: 30,
      platform: 'douyin' as const,
    };
    const ten = imitateTitlesLocally(input);
    expect(imitateTitlesLocally(input)).toEqual(ten);
    expect(imitateTitlesLocally({ ...input, count: 4 })).toEqual(ten.slice(0, 4));
    expect(imitateTitlesLocally({ ...input, platform: 'kuaishou' })).not.toEqual(ten);
  });

  it('keeps to tighter limits too', () => {
    for (const maxLength of [8, 12, 16]) {
      for (const title of ['How to cook perfect rice', '让你的视频播放量翻倍的3个技巧', 'a']) {
        const titles = imitateTitlesLocally({ title, count: 10, maxLength, platform: 'douyin' });
        expectGood(titles, title, 10, maxLength);
      }
    }
  });

  it('writes titles in the language of the input, in short-video patterns', () => {
    const zh = imitateTitlesLocally({
      title: '3个技巧，让你的视频播放量翻倍',
      count: 10,
      maxLength: 30,
      platform: 'douyin',
    });
    expect(zh.every((x) => /\p{Script=Han}/u.test(x))).toBe(true);
    expect(zh.some((x) => x.includes('播放量') || x.includes('热度') || x.includes('流量'))).toBe(
      true,
    );
    const en = imitateTitlesLocally({
      title: 'Easy home workout for beginners',
      count: 10,
      maxLength: 30,
      platform: 'douyin',
    });
    expect(en.some((x) => /\p{Script=Han}/u.test(x))).toBe(false);
    expect(en.filter((x) => /workout/i.test(x)).length).toBeGreaterThanOrEqual(5);
  });
});
