import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImitateTitleReply } from '../../src/api/contract/ai-text';
import type {
  AiTool,
  AiToolPage,
  AiToolTryReply,
  Industry,
  IndustryTree,
  Script,
  ScriptPage,
} from '../../src/api/contract/ai-tools';
import type { Db } from '../../server/platform/db/schema';
import { api, createTestApp, engines, type Reply, type TestApp } from './helpers';

/**
 * AI tools, industries and scripts (docs/domain.md §23) on both engines: admin only for the tools
 * and the writes, the creators read industries and scripts; only declared variables in a
 * template; try-it through the embedded provider (demonstration output) and the OpenAI-compatible
 * one (a fake chat-completions server); `/matrix/ai_imitate_title` sends the enabled
 * `imitate_title` tool's template. A refused call changes nothing; every write is audited.
 */
const EN = { lang: 'en-US' };
const ZH = { lang: 'zh-CN' };

const TOOL = {
  key: 'video_copy',
  name: 'Video copy',
  model: '',
  template: 'Write spoken copy about ${topic} for ${audience}.',
  variables: ['topic', 'audience'],
  unit: 'call',
  cost: '0.05',
  status: 'enabled',
};

/** Every row of the tables this area writes, to show a refused call changed nothing. */
async function rows(db: Db) {
  const [tools, industries, scripts, audit] = await Promise.all([
    db.selectFrom('ai_tools').selectAll().orderBy('id').execute(),
    db.selectFrom('industries').selectAll().orderBy('id').execute(),
    db.selectFrom('scripts').selectAll().orderBy('id').execute(),
    db
      .selectFrom('audit_log')
      .select(['id', 'action'])
      .where('result', '=', 'ok')
      .orderBy('id')
      .execute(),
  ]);
  return JSON.stringify({ tools, industries, scripts, audit });
}

const lastAudit = (db: Db) =>
  db
    .selectFrom('audit_log')
    .selectAll()
    .where('result', '=', 'ok')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();

describe.each(engines)('AI tools, industries and scripts on %s', (engine) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp(engine);
    for (const who of ['admin', 'partner', 'merchant', 'agent']) tokens[who] = await t.login(who);
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = <T>(url: string, body: unknown, who = 'admin', headers = EN) =>
    t.call<T>('POST', api(url), { token: tokens[who], body, headers });
  const get = <T>(url: string, query: Record<string, string> = {}, who = 'admin', headers = EN) =>
    t.call<T>('GET', api(url), { token: tokens[who], query, headers });
  /** The call is refused with `msg` and the tables are as before. */
  async function refused(call: () => Promise<Reply>, msg: string | RegExp) {
    const before = await rows(t.db);
    const reply = await call();
    expect(reply.status, reply.raw).toBe(200);
    expect(reply.body.code, reply.raw).toBe(0);
    if (typeof msg === 'string') expect(reply.body.msg).toBe(msg);
    else expect(reply.body.msg).toMatch(msg);
    expect(await rows(t.db)).toBe(before);
  }

  it('lists the seeded imitate_title tool; only the admin may call the tools', async () => {
    const list = await get<AiToolPage>('/ai_tool/list');
    expect(list.body.code).toBe(1);
    const seeded = list.body.data.list.find((tool) => tool.key === 'imitate_title');
    expect(seeded).toMatchObject({
      status: 'enabled',
      variables: ['title', 'count', 'max_length', 'platform'],
      unit: 'call',
      cost: '0.00',
    });
    expect(seeded?.template).toContain('Original title: ${title}');
    for (const who of ['partner', 'merchant', 'agent']) {
      expect((await get('/ai_tool/list', {}, who)).status).toBe(403);
      const before = await rows(t.db);
      expect((await post('/ai_tool/add', { ...TOOL, key: `k_${who}` }, who)).status).toBe(403);
      expect((await post('/ai_tool/try', { id: seeded!.id, vars: {} }, who)).status).toBe(403);
      expect(await rows(t.db)).toBe(before);
    }
  });

  it('adds, edits and deletes a tool, each audited', async () => {
    const added = await post<AiTool>('/ai_tool/add', TOOL);
    expect(added.body).toMatchObject({ code: 1, msg: 'AI tool saved', data: { ...TOOL } });
    const id = added.body.data.id;
    let audit = await lastAudit(t.db);
    expect(audit).toMatchObject({ action: 'ai_tool.add', target_id: id, actor_role: 'admin' });
    expect(JSON.parse(audit.diff)).toMatchObject({ key: { after: 'video_copy' } });

    const edited = await post<AiTool>('/ai_tool/edit', {
      id,
      ...TOOL,
      name: 'Video copy 2',
      cost: 1.5,
      status: 'disabled',
    });
    expect(edited.body.data).toMatchObject({
      id,
      name: 'Video copy 2',
      cost: '1.50',
      status: 'disabled',
    });
    audit = await lastAudit(t.db);
    expect(audit).toMatchObject({ action: 'ai_tool.edit', target_id: id });
    expect(JSON.parse(audit.diff)).toMatchObject({
      name: { before: 'Video copy', after: 'Video copy 2' },
      status: { before: 'enabled', after: 'disabled' },
    });
    const list = await get<AiToolPage>('/ai_tool/list', { keyword: 'COPY 2' });
    expect(list.body.data).toMatchObject({ total: 1, list: [{ id }] });

    expect((await post('/ai_tool/delete', { id })).body).toMatchObject({ code: 1 });
    expect(await lastAudit(t.db)).toMatchObject({ action: 'ai_tool.delete', target_id: id });
    await refused(() => post('/ai_tool/delete', { id }), 'AI tool not found');
    await refused(() => post('/ai_tool/edit', { id, ...TOOL }), 'AI tool not found');
  });

  it('refuses a template that uses an undeclared variable, naming it, in either locale', async () => {
    const bad = {
      ...TOOL,
      key: 'bad_vars',
      template: 'About ${topic} in ${ tone } for ${audience}',
    };
    await refused(
      () => post('/ai_tool/add', bad),
      'The template uses the variable ${tone}, which is not declared (declared: topic, audience)',
    );
    await refused(() => post('/ai_tool/add', bad, 'admin', ZH), /未声明的变量 \$\{tone\}/);
    await refused(
      () => post('/ai_tool/add', { ...bad, template: 'x ${a-b}', variables: [] }),
      /variable \$\{a-b\}, which is not declared \(declared: —\)/,
    );
    // Declared but unused is fine; the same rule on edit.
    const ok = await post<AiTool>('/ai_tool/add', {
      ...TOOL,
      key: 'spare',
      variables: ['topic', 'audience', 'x'],
    });
    expect(ok.body.code).toBe(1);
    await refused(
      () => post('/ai_tool/edit', { ...bad, id: ok.body.data.id, key: 'spare' }),
      /\$\{tone\}/,
    );
  });

  it('refuses bad fields with localised messages, changing nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ key: 'Bad-Key' }, 'Key: 2 to 40 lower-case letters, digits or _'],
      [{ key: 'a' }, 'Key: 2 to 40 lower-case letters, digits or _'],
      [{ name: '' }, 'Name: 1 to 40 characters'],
      [{ template: '   ' }, 'Prompt template: 1 to 4000 characters'],
      [
        { variables: ['1x'] },
        'Variable name: a letter or _, then letters, digits or _ (at most 32)',
      ],
      [{ variables: ['topic', 'topic'] }, 'Variables: at most 20, each name once'],
      [{ unit: 'year' }, 'Choose a unit'],
      [{ cost: '-1' }, 'Cost: an amount from 0 to 99999.99 with at most 2 decimals'],
      [{ cost: '1.234' }, 'Cost: an amount from 0 to 99999.99 with at most 2 decimals'],
      [{ status: 'on' }, 'Choose a status'],
      [{ model: 'gpt 4' }, 'Model: up to 100 characters, no spaces (empty: the configured model)'],
    ];
    for (const [change, msg] of cases) {
      await refused(
        () => post('/ai_tool/add', { ...TOOL, key: 'fields', ...change }),
        new RegExp(msg.replace(/[()]/g, '\\$&')),
      );
    }
    await refused(
      () => post('/ai_tool/add', { ...TOOL, key: 'fields', cost: 'x' }, 'admin', ZH),
      /费用/,
    );
    // A key taken.
    expect((await post('/ai_tool/add', { ...TOOL, key: 'taken' })).body.code).toBe(1);
    await refused(
      () => post('/ai_tool/add', { ...TOOL, key: 'taken' }),
      'The key taken is already used by another tool',
    );
  });

  it('tries a tool through the embedded provider: demonstration output, the same for the same prompt', async () => {
    const tool = (
      await post<AiTool>('/ai_tool/add', { ...TOOL, key: 'try_me', status: 'disabled' })
    ).body.data;
    const vars = { topic: 'home workouts', audience: 'beginners' };
    const first = await post<AiToolTryReply>('/ai_tool/try', { id: tool.id, vars });
    expect(first.body.code, first.raw).toBe(1);
    expect(first.body.data).toMatchObject({
      prompt: 'Write spoken copy about home workouts for beginners.',
      demonstration: true,
      provider: 'embedded',
    });
    expect(first.body.data.answer).toMatch(/^\[Demonstration output\] .*not by an AI model/);
    expect(first.body.data.answer).toContain(
      'Write spoken copy about home workouts for beginners.',
    );
    const again = await post<AiToolTryReply>('/ai_tool/try', { id: tool.id, vars });
    expect(again.body.data.answer).toBe(first.body.data.answer);
    const zh = await post<AiToolTryReply>('/ai_tool/try', {
      id: tool.id,
      vars: { topic: '居家健身', audience: '新手' },
    });
    expect(zh.body.data.answer).toMatch(/^【演示输出】.*并非 AI 模型的回答/);
    // Trying writes nothing, not even an audit row.
    const before = await rows(t.db);
    await post('/ai_tool/try', { id: tool.id, vars });
    expect(await rows(t.db)).toBe(before);

    await refused(
      () => post('/ai_tool/try', { id: tool.id, vars: { topic: 'x' } }),
      'Enter a value for the variable audience',
    );
    await refused(
      () => post('/ai_tool/try', { id: tool.id, vars: { topic: 'x', audience: '  ' } }),
      'Enter a value for the variable audience',
    );
    await refused(
      () => post('/ai_tool/try', { id: tool.id, vars: { ...vars, tone: 'calm' } }),
      'The tool has no variable tone',
    );
    await refused(
      () => post('/ai_tool/try', { id: tool.id, vars: { topic: 5 } }),
      'Each value: text of at most 2000 characters',
    );
    await refused(() => post('/ai_tool/try', { id: 999_999, vars }), 'AI tool not found');
  });

  it('manages two levels of industries; the creators read the tree', async () => {
    const top = await post<Industry>('/industry/add', { name: 'Food', sort: 2 });
    expect(top.body).toMatchObject({ code: 1, data: { name: 'Food', parent_id: 0 } });
    expect(await lastAudit(t.db)).toMatchObject({
      action: 'industry.add',
      target_id: top.body.data.id,
    });
    const other = await post<Industry>('/industry/add', { name: 'Beauty', sort: 1 });
    const sub = await post<Industry>('/industry/add', {
      name: 'Bakery',
      parent_id: top.body.data.id,
    });
    expect(sub.body.data.parent_id).toBe(top.body.data.id);
    await refused(
      () => post('/industry/add', { name: 'Bread', parent_id: sub.body.data.id }),
      'Industries have two levels: a sub-industry cannot have sub-industries',
    );
    await refused(
      () => post('/industry/add', { name: 'Food' }),
      'An industry named Food already exists at this level',
    );
    await refused(
      () => post('/industry/add', { name: 'X', parent_id: 999_999 }),
      'The parent industry does not exist',
    );
    await refused(() => post('/industry/add', { name: '' }), 'Industry name: 1 to 20 characters');
    // The same name under another parent is fine.
    expect(
      (await post('/industry/add', { name: 'Bakery', parent_id: other.body.data.id })).body.code,
    ).toBe(1);

    for (const who of ['admin', 'partner', 'merchant']) {
      const tree = await get<IndustryTree>('/platform/industry', {}, who);
      expect(tree.body.code).toBe(1);
      const names = tree.body.data.list.map((i) => [i.name, i.children.map((c) => c.name)]);
      expect(names).toEqual([
        ['Beauty', ['Bakery']],
        ['Food', ['Bakery']],
      ]);
    }
    expect((await get('/platform/industry', {}, 'agent')).status).toBe(403);
    const before = await rows(t.db);
    expect((await post('/industry/add', { name: 'Mine' }, 'partner')).status).toBe(403);
    expect(await rows(t.db)).toBe(before);

    const renamed = await post<Industry>('/industry/edit', {
      id: top.body.data.id,
      name: 'Food & drink',
      sort: 0,
    });
    expect(renamed.body.data).toMatchObject({ name: 'Food & drink', parent_id: 0 });
    expect(await lastAudit(t.db)).toMatchObject({ action: 'industry.edit' });
    await refused(
      () => post('/industry/delete', { id: top.body.data.id }),
      'Delete or move its sub-industries first',
    );
  });

  it('manages scripts; an industry’s list takes its sub-industries’; filters by kind and keyword', async () => {
    const top = (await post<Industry>('/industry/add', { name: 'Fitness' })).body.data;
    const sub = (await post<Industry>('/industry/add', { name: 'Yoga', parent_id: top.id })).body
      .data;
    const a = await post<Script>('/script/add', {
      industry_id: top.id,
      kind: 'title',
      content: 'Get fit in 10 minutes',
    });
    expect(a.body).toMatchObject({ code: 1, data: { industry_name: 'Fitness', kind: 'title' } });
    expect(await lastAudit(t.db)).toMatchObject({
      action: 'script.add',
      target_id: a.body.data.id,
    });
    await post('/script/add', {
      industry_id: sub.id,
      kind: 'copy',
      content: 'Breathe in, breathe out.\nSlowly.',
    });
    await post('/script/add', { industry_id: sub.id, kind: 'topic', content: '#yoga' });

    const all = await get<ScriptPage>(
      '/platform/script',
      { industry_id: String(top.id) },
      'merchant',
    );
    expect(all.body.data.total).toBe(3);
    const subOnly = await get<ScriptPage>(
      '/platform/script',
      { industry_id: String(sub.id) },
      'partner',
    );
    expect(subOnly.body.data.list.map((s) => s.kind)).toEqual(['topic', 'copy']);
    const titles = await get<ScriptPage>('/platform/script', {
      industry_id: String(top.id),
      kind: 'title',
    });
    expect(titles.body.data.list.map((s) => s.content)).toEqual(['Get fit in 10 minutes']);
    const found = await get<ScriptPage>('/platform/script', {
      keyword: 'BREATHE',
      page: '1',
      limit: '1',
    });
    expect(found.body.data).toMatchObject({ total: 1, list: [{ industry_name: 'Yoga' }] });
    expect((await get('/platform/script', {}, 'agent')).status).toBe(403);
    await refused(() => get('/platform/script', { kind: 'poem' }), 'Choose a script kind');

    await refused(
      () => post('/script/add', { industry_id: top.id, kind: 'poem', content: 'x' }),
      'Choose a script kind',
    );
    await refused(
      () => post('/script/add', { industry_id: top.id, kind: 'copy', content: ' ' }),
      'Script: 1 to 2000 characters',
    );
    await refused(
      () => post('/script/add', { industry_id: 999_999, kind: 'copy', content: 'x' }),
      'Industry not found',
    );
    const before = await rows(t.db);
    expect(
      (await post('/script/add', { industry_id: top.id, kind: 'copy', content: 'x' }, 'merchant'))
        .status,
    ).toBe(403);
    expect(await rows(t.db)).toBe(before);

    const edited = await post<Script>('/script/edit', {
      id: a.body.data.id,
      industry_id: sub.id,
      kind: 'title',
      content: 'Yoga in 10 minutes',
    });
    expect(edited.body.data).toMatchObject({
      industry_name: 'Yoga',
      content: 'Yoga in 10 minutes',
    });
    expect(JSON.parse((await lastAudit(t.db)).diff)).toMatchObject({
      content: { before: 'Get fit in 10 minutes', after: 'Yoga in 10 minutes' },
    });
    await refused(() => post('/industry/delete', { id: sub.id }), 'Delete its scripts first');
    for (const script of (
      await get<ScriptPage>('/platform/script', { industry_id: String(sub.id) })
    ).body.data.list) {
      expect((await post('/script/delete', { id: script.id })).body.code).toBe(1);
    }
    await refused(() => post('/script/delete', { id: a.body.data.id }), 'Script not found');
    expect((await post('/industry/delete', { id: sub.id })).body.code).toBe(1);
    expect(await lastAudit(t.db)).toMatchObject({ action: 'industry.delete', target_id: sub.id });
  });
});

// ---- The OpenAI-compatible provider, against a fake chat-completions server ----

interface Received {
  authorization: string | undefined;
  body: { model: string; messages: { role: string; content: string }[] };
}

async function startFakeChat(answer: (received: Received) => string) {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    request.on('end', () => {
      const entry: Received = {
        authorization: request.headers.authorization,
        body: JSON.parse(raw) as Received['body'],
      };
      received.push(entry);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: answer(entry) },
              finish_reason: 'stop',
            },
          ],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    received,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.each(engines)('AI tools through the OpenAI-compatible service on %s', (engine) => {
  let t: TestApp;
  let fake: Awaited<ReturnType<typeof startFakeChat>>;
  beforeAll(async () => {
    fake = await startFakeChat((received) =>
      received.body.messages.some((m) => m.content.includes('JSON array'))
        ? JSON.stringify(['Title one', 'Title two', 'Title three', 'Title four'])
        : 'A model answer',
    );
    t = await createTestApp(engine, {
      config: {
        aiText: { provider: 'openai', baseUrl: fake.url, model: 'gpt-default', apiKey: 'sk-env' },
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.stop();
  });

  it('sends the filled template as one chat completion with the tool’s model', async () => {
    const admin = await t.login('admin');
    const tool = await t.call<AiTool>('POST', api('/ai_tool/add'), {
      token: admin,
      body: { ...TOOL, model: 'gpt-tool' },
      headers: EN,
    });
    const reply = await t.call<AiToolTryReply>('POST', api('/ai_tool/try'), {
      token: admin,
      body: { id: tool.body.data.id, vars: { topic: 'tea', audience: 'students' } },
      headers: EN,
    });
    expect(reply.body.data).toEqual({
      answer: 'A model answer',
      prompt: 'Write spoken copy about tea for students.',
      demonstration: false,
      provider: 'openai',
    });
    const sent = fake.received.at(-1)!;
    expect(sent.authorization).toBe('Bearer sk-env');
    expect(sent.body.model).toBe('gpt-tool');
    expect(sent.body.messages).toEqual([
      { role: 'user', content: 'Write spoken copy about tea for students.' },
    ]);
    // An empty model: the configured one.
    await t.call('POST', api('/ai_tool/edit'), {
      token: admin,
      body: { id: tool.body.data.id, ...TOOL, model: '' },
      headers: EN,
    });
    await t.call('POST', api('/ai_tool/try'), {
      token: admin,
      body: { id: tool.body.data.id, vars: { topic: 'tea', audience: 'students' } },
      headers: EN,
    });
    expect(fake.received.at(-1)!.body.model).toBe('gpt-default');
  });

  it('ai_imitate_title sends the imitate_title tool’s template; disabled, the built-in prompt', async () => {
    const admin = await t.login('admin');
    const merchant = await t.login('merchant');
    const imitate = () =>
      t.call<ImitateTitleReply>('POST', api('/matrix/ai_imitate_title'), {
        token: merchant,
        body: { title: 'Easy home workout', count: 2, platform: 'kuaishou' },
        headers: EN,
      });
    // The seeded template gives the prompt of before.
    expect((await imitate()).body.data.titles).toEqual(['Title one', 'Title two']);
    const seededPrompt = fake.received.at(-1)!.body.messages[1]!.content;
    expect(seededPrompt).toContain('Write 4 new titles for a Kuaishou short video');
    expect(seededPrompt).toContain('Original title: "Easy home workout"');

    const list = await t.call<AiToolPage>('GET', api('/ai_tool/list'), {
      token: admin,
      query: { keyword: 'imitate_title' },
    });
    const seeded = list.body.data.list[0]!;
    const edit = (changes: Partial<AiTool>) =>
      t.call<AiTool>('POST', api('/ai_tool/edit'), {
        token: admin,
        body: {
          id: seeded.id,
          key: seeded.key,
          name: seeded.name,
          model: seeded.model,
          template: seeded.template,
          variables: seeded.variables,
          unit: seeded.unit,
          cost: seeded.cost,
          status: seeded.status,
          ...changes,
        },
        headers: EN,
      });
    const edited = await edit({
      template: 'EDITED: ${count} like ${title} (max ${max_length}, ${platform})',
      model: 'gpt-titles',
    });
    expect(edited.body.code, edited.raw).toBe(1);
    await imitate();
    const sent = fake.received.at(-1)!.body;
    expect(sent.model).toBe('gpt-titles');
    expect(sent.messages[1]!.content).toBe('EDITED: 4 like "Easy home workout" (max 30, Kuaishou)');

    // Its template may use only the variables the call fills.
    const refused = await edit({ template: 'x ${tone}', variables: ['title', 'tone'] });
    expect(refused.body.msg).toMatch(
      /only the variables its call fills \(title, count, max_length, platform\), not \$\{tone\}/,
    );

    await edit({ status: 'disabled' });
    await imitate();
    const builtIn = fake.received.at(-1)!.body;
    expect(builtIn.model).toBe('gpt-default');
    expect(builtIn.messages[1]!.content).toBe(seededPrompt);
  });
});
