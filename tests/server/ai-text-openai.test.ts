import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ImitateTitleReply } from '../../src/api/contract/ai-text';
import type { IntegrationList } from '../../src/api/contract/integrations';
import { createOpenAiText, TOO_FEW } from '../../server/integrations/ai-text/openai';
import type { ImitateTitlesInput } from '../../server/integrations/ai-text';
import { IntegrationError } from '../../server/integrations/errors';
import { api, createTestApp, engines, freePort, type TestApp } from './helpers';

/**
 * The OpenAI-compatible AI-text adapter against a fake chat-completions server: the key sent as a
 * bearer token and read at each call (a sealed setting wins over the environment's, without a
 * restart), the answer read leniently, and each failure mapped to its kind.
 */
const KEY = 'sk-test-ai-text-key-4e1f9a';
const EN = { lang: 'en-US' };

interface Received {
  url: string;
  authorization: string | undefined;
  body: { model: string; messages: { role: string; content: string }[] };
}

type Answer = (received: Received, response: http.ServerResponse) => void;

/** A chat-completions server whose answer each test sets. */
async function startFakeChat() {
  const received: Received[] = [];
  let answer: Answer = () => {};
  const server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    request.on('end', () => {
      const entry: Received = {
        url: request.url ?? '',
        authorization: request.headers.authorization,
        body: JSON.parse(raw) as Received['body'],
      };
      received.push(entry);
      answer(entry, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    received,
    answer(next: Answer) {
      answer = next;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
type FakeChat = Awaited<ReturnType<typeof startFakeChat>>;

const json = (response: http.ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};
/** A completion whose message is `content`. */
const completion = (content: string) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
});
/** Answers with the given titles, as the model wrote them; also checks the key. */
const titlesAnswer =
  (content: string, key = KEY): Answer =>
  (received, response) => {
    if (received.authorization !== `Bearer ${key}`) {
      return json(response, 401, { error: { message: 'Incorrect API key provided' } });
    }
    json(response, 200, completion(content));
  };

const input: ImitateTitlesInput = {
  title: '3个技巧，让你的视频播放量翻倍',
  count: 3,
  maxLength: 20,
  platform: 'xiaohongshu',
};

/** The rejection of a call, which must be an IntegrationError. */
async function failureOf(promise: Promise<unknown>): Promise<IntegrationError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(IntegrationError);
  return error as IntegrationError;
}

describe('the OpenAI-compatible AI-text adapter', () => {
  let fake: FakeChat;
  let key: string | undefined = KEY;
  const provider = (timeoutMs = 2000) =>
    createOpenAiText({
      baseUrl: `${fake.url}/`,
      model: 'test-model',
      apiKey: async () => key,
      timeoutMs,
    });

  beforeAll(async () => {
    fake = await startFakeChat();
  });
  afterAll(async () => {
    await fake.stop();
  });
  afterEach(() => {
    key = KEY;
    fake.received.length = 0;
  });

  it('asks the model for a JSON array and answers count titles', async () => {
    fake.answer(
      titlesAnswer(
        JSON.stringify([
          '三个妙招让播放量翻倍',
          '播放量翻倍的秘诀',
          '这样拍视频播放量翻倍',
          '多余的一个',
        ]),
      ),
    );
    const ai = provider();
    expect(ai).toMatchObject({ name: 'openai', demonstration: false });
    expect(await ai.imitateTitles(input)).toEqual([
      '三个妙招让播放量翻倍',
      '播放量翻倍的秘诀',
      '这样拍视频播放量翻倍',
    ]);
    const [request] = fake.received;
    expect(request.url).toBe('/v1/chat/completions');
    expect(request.authorization).toBe(`Bearer ${KEY}`);
    expect(request.body.model).toBe('test-model');
    const prompt = request.body.messages.map((m) => m.content).join('\n');
    expect(prompt).toContain('JSON array');
    expect(prompt).toContain('at most 20 characters');
    expect(prompt).toContain('Xiaohongshu');
    expect(prompt).toContain(input.title);
  });

  it('reads an answer in ```json fences, trims, drops duplicates, over-long ones and the input', async () => {
    const content = [
      'Here you go:',
      '```json',
      JSON.stringify([
        '  播放量翻倍的秘诀  ',
        '播放量翻倍的秘诀',
        input.title,
        '这是一个远远超过二十个字符限制的非常非常长的标题啊啊',
        '“三个妙招让播放量翻倍”',
        '这样拍视频播放量翻倍',
      ]),
      '```',
    ].join('\n');
    fake.answer(titlesAnswer(content));
    expect(await provider().imitateTitles(input)).toEqual([
      '播放量翻倍的秘诀',
      '三个妙招让播放量翻倍',
      '这样拍视频播放量翻倍',
    ]);
    // An object with titles, and a numbered list, are read too.
    fake.answer(titlesAnswer(JSON.stringify({ titles: ['一', '二', '三'] })));
    expect(await provider().imitateTitles(input)).toEqual(['一', '二', '三']);
    fake.answer(titlesAnswer('1. 标题一\n2. 标题二\n3) 标题三\n'));
    expect(await provider().imitateTitles(input)).toEqual(['标题一', '标题二', '标题三']);
  });

  it('fails permanently when too few usable titles come back', async () => {
    fake.answer(titlesAnswer(JSON.stringify(['只有一个', '只有一个', input.title])));
    const error = await failureOf(provider().imitateTitles(input));
    expect(error).toMatchObject({
      kind: 'permanent',
      reasonId: TOO_FEW,
      reasonParams: { got: 1, count: 3 },
    });
    fake.answer(titlesAnswer('I cannot help with that.'));
    expect(await failureOf(provider().imitateTitles(input))).toMatchObject({
      kind: 'permanent',
      reasonId: TOO_FEW,
    });
  });

  it('maps refusals: 401/403 reauthorize, 429/5xx transient, another 4xx permanent', async () => {
    const cases = [
      [401, 'reauthorize', 'aiText.reason.keyRefused'],
      [403, 'reauthorize', 'aiText.reason.keyRefused'],
      [429, 'transient', 'aiText.reason.unavailable'],
      [500, 'transient', 'aiText.reason.unavailable'],
      [503, 'transient', 'aiText.reason.unavailable'],
      [400, 'permanent', 'aiText.reason.refused'],
    ] as const;
    for (const [status, kind, reasonId] of cases) {
      fake.answer((_, response) =>
        json(response, status, { error: { message: `nope ${status}` } }),
      );
      const error = await failureOf(provider().imitateTitles(input));
      expect(error, String(status)).toMatchObject({ kind, reasonId });
      expect(error.permanent).toBe(kind !== 'transient');
    }
    // A 200 that is not a chat completion: the service is unwell.
    fake.answer((_, response) => json(response, 200, { hello: 'world' }));
    expect(await failureOf(provider().imitateTitles(input))).toMatchObject({ kind: 'transient' });
  });

  it('is transient on a timeout and when the service is down; no key is reauthorize', async () => {
    fake.answer((_, response) => {
      setTimeout(() => json(response, 200, completion('["a","b","c"]')), 1500);
    });
    const started = Date.now();
    const slow = await failureOf(provider(200).imitateTitles(input));
    expect(slow).toMatchObject({ kind: 'transient', reasonId: 'aiText.reason.unavailable' });
    expect(slow.message).toContain('timed out');
    expect(Date.now() - started).toBeLessThan(1400);

    const port = await freePort();
    const down = createOpenAiText({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      model: 'm',
      apiKey: async () => KEY,
    });
    expect(await failureOf(down.imitateTitles(input))).toMatchObject({ kind: 'transient' });

    key = undefined;
    const count = fake.received.length;
    expect(await failureOf(provider().imitateTitles(input))).toMatchObject({
      kind: 'reauthorize',
      reasonId: 'aiText.reason.notConfigured',
    });
    expect(fake.received.length).toBe(count);
  });

  it('rejects with the reason of an aborted signal', async () => {
    fake.answer((_, response) => {
      setTimeout(() => json(response, 200, completion('["a","b","c"]')), 1000);
    });
    const abort = new AbortController();
    const call = provider().imitateTitles(input, abort.signal);
    setTimeout(() => abort.abort(new Error('stop')), 50);
    await expect(call).rejects.toThrow('stop');
  });
});

describe.each(engines)('AI titles through OpenAI on %s', (engine) => {
  let fake: FakeChat;
  let t: TestApp;
  beforeAll(async () => {
    fake = await startFakeChat();
    t = await createTestApp(engine, {
      config: {
        aiText: {
          provider: 'openai',
          baseUrl: fake.url,
          model: 'gpt-test',
          // A stale key in the environment: the sealed setting must win over it.
          apiKey: 'stale-environment-key',
        },
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.stop();
  });

  it('reads the API key at each call: the sealed setting wins, without a restart', async () => {
    const merchant = await t.login('merchant');
    const admin = await t.login('admin');
    const imitate = () =>
      t.call<ImitateTitleReply>('POST', api('/matrix/ai_imitate_title'), {
        token: merchant,
        body: { title: 'Easy home workout for beginners', count: 2 },
        headers: EN,
      });
    fake.answer(titlesAnswer('["Home workout, made easy", "No gym? No problem"]'));

    // The environment's stale key is refused: an admin must set one.
    const refused = await imitate();
    expect(refused.body).toMatchObject({
      code: 0,
      msg: 'The AI text service refused our API key: an administrator must set it again',
    });
    expect(fake.received.at(-1)?.authorization).toBe('Bearer stale-environment-key');

    const set = await t.call('POST', api('/integration/set_secret'), {
      token: admin,
      body: { kind: 'ai-text', name: 'api_key', value: KEY },
      headers: EN,
    });
    expect(set.body.code, set.raw).toBe(1);
    const reply = await imitate();
    expect(reply.body.code, reply.raw).toBe(1);
    expect(reply.body.data).toEqual({
      titles: ['Home workout, made easy', 'No gym? No problem'],
      demonstration: false,
    });
    expect(fake.received.at(-1)?.authorization).toBe(`Bearer ${KEY}`);
    expect(fake.received.at(-1)?.body.model).toBe('gpt-test');
    expect(reply.raw).not.toContain(KEY);

    const list = await t.call<IntegrationList>('GET', api('/integration/list'), {
      token: admin,
      headers: EN,
    });
    expect(list.body.data.list.find((i) => i.kind === 'ai-text')).toMatchObject({
      providers: ['openai'],
      secrets: [
        { name: 'api_key', provider: 'openai', env: 'AI_TEXT_API_KEY', source: 'settings' },
      ],
    });

    // The service down for a moment: "try again later", never a 5xx.
    fake.answer((_, response) => json(response, 503, { error: { message: 'overloaded' } }));
    const busy = await imitate();
    expect(busy.status).toBe(200);
    expect(busy.body).toMatchObject({
      code: 0,
      msg: 'The AI text service is unavailable at the moment; try again later',
    });
  });
});
