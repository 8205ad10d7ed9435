import { execFileSync } from 'node:child_process';
import {
  createCipheriv,
  createPublicKey,
  createVerify,
  generateKeyPairSync,
  type KeyObject,
} from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ImitateTitleReply } from '../../src/api/contract/ai-text';
import type {
  InitConfig,
  InitConfigTestReply,
  SecretState,
} from '../../src/api/contract/init-config';
import {
  api,
  createTestApp,
  engines,
  freePort,
  T0,
  type TestApp,
  type TestAppOptions,
} from './helpers';
import { startFakeAliyunSms } from './fake-aliyun-sms';
import { startFakeWechatApi } from './fake-wechat-api';
import { startS3TestServer, type S3TestServer } from './s3-test-server';

/**
 * The system init settings (docs/domain.md §System init): admin only; plain values read back,
 * secrets and files write-only (state only), an empty secret leaves it unchanged, clearing is
 * explicit; every change audited with secrets as "changed"; a value stored here wins over the
 * environment at the next use; "test connection" against fake vendors.
 */
const EN = { lang: 'en-US' };
const AI_KEY = 'sk-init-config-ai-key-9f3e2d1c';
const STORAGE_SECRET = 'storage-secret-key-77aa55cc';
const DOUYIN_SECRET = 'sandbox-client-secret-3141592653';

const unsetState: SecretState = {
  configured: false,
  source: null,
  last4: null,
  updated_at: null,
  updated_by: null,
};

/** A chat-completions server: answers one title when the bearer key is `key`, else 401. */
async function startFakeChat(key: string) {
  const seen: { url: string; authorization?: string; model: string }[] = [];
  const server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    request.on('end', () => {
      const body = JSON.parse(raw) as { model: string };
      seen.push({
        url: request.url ?? '',
        authorization: request.headers.authorization,
        model: body.model,
      });
      const ok = request.headers.authorization === `Bearer ${key}`;
      response.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify(
          ok
            ? {
                choices: [
                  {
                    message: { role: 'assistant', content: '["Fake title one","Fake title two"]' },
                  },
                ],
              }
            : { error: { message: 'Incorrect API key provided' } },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    seen,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
type FakeChat = Awaited<ReturnType<typeof startFakeChat>>;

/**
 * A fake WeChat Pay API (APIv3): `GET /v3/certificates` checks the merchant's signature with its
 * public key (mch_id and serial number too) and answers a platform certificate encrypted with the
 * APIv3 key (AEAD_AES_256_GCM), or 401 SIGN_ERROR.
 */
async function startFakeWechatPay(merchant: {
  mchId: string;
  serialNo: string;
  publicKey: KeyObject;
  apiv3Key: string;
  platformCert: string;
}) {
  const seen: string[] = [];
  const server = http.createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    const auth = request.headers.authorization ?? '';
    const fields = Object.fromEntries(
      [...auth.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]] as const),
    );
    const message = `GET\n/v3/certificates\n${fields.timestamp}\n${fields.nonce_str}\n\n`;
    const signed =
      auth.startsWith('WECHATPAY2-SHA256-RSA2048 ') &&
      fields.mchid === merchant.mchId &&
      fields.serial_no === merchant.serialNo &&
      createVerify('RSA-SHA256')
        .update(message)
        .verify(merchant.publicKey, fields.signature ?? '', 'base64');
    response.setHeader('content-type', 'application/json');
    if (request.url !== '/v3/certificates' || !signed) {
      response.writeHead(401);
      response.end(
        JSON.stringify({ code: 'SIGN_ERROR', message: 'signature verification failed' }),
      );
      return;
    }
    const nonce = 'a1b2c3d4e5f6';
    const cipher = createCipheriv('aes-256-gcm', Buffer.from(merchant.apiv3Key, 'utf8'), nonce);
    cipher.setAAD(Buffer.from('certificate'));
    const ciphertext = Buffer.concat([
      cipher.update(merchant.platformCert, 'utf8'),
      cipher.final(),
      cipher.getAuthTag(),
    ]).toString('base64');
    response.writeHead(200);
    response.end(
      JSON.stringify({
        data: [
          {
            serial_no: 'PLATFORM0001',
            effective_time: '2026-01-01T00:00:00+08:00',
            expire_time: '2031-01-01T00:00:00+08:00',
            encrypt_certificate: {
              algorithm: 'AEAD_AES_256_GCM',
              associated_data: 'certificate',
              nonce,
              ciphertext,
            },
          },
        ],
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A WeChat-Pay-like RSA key pair and a self-signed certificate for it (openssl). */
function pemFiles() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-init-cert-'));
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  fs.writeFileSync(path.join(dir, 'key.pem'), key);
  execFileSync('openssl', [
    'req',
    '-x509',
    '-new',
    '-key',
    path.join(dir, 'key.pem'),
    '-subj',
    '/CN=1900000001',
    '-days',
    '30',
    '-out',
    path.join(dir, 'cert.pem'),
  ]);
  const cert = fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8');
  fs.rmSync(dir, { recursive: true, force: true });
  return { key, cert };
}

function multipart(fields: Record<string, string>, file?: { name: string; content: string }) {
  const boundary = '----init-config-test';
  const parts = Object.entries(fields).map(
    ([name, value]) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  if (file) {
    parts.push(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\n` +
        `Content-Type: application/x-pem-file\r\n\r\n${file.content}\r\n`,
    );
  }
  return {
    payload: `${parts.join('')}--${boundary}--\r\n`,
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

describe.each(engines)('system init settings on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let logLines: string[];
  const start = async (options: TestAppOptions = {}) => {
    logLines = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString('utf8'));
        done();
      },
    });
    t = await createTestApp(engine, { logger: { level: 'trace', stream }, ...options });
    admin = await t.login('admin');
  };
  afterEach(async () => {
    await t?.close();
  });

  let pems: { key: string; cert: string };
  let chat: FakeChat;
  let otherChat: FakeChat;
  let s3: S3TestServer;
  beforeAll(async () => {
    pems = pemFiles();
    chat = await startFakeChat(AI_KEY);
    otherChat = await startFakeChat('sk-environment-key-000000');
    s3 = await startS3TestServer(Date.now);
  });
  afterAll(async () => {
    await chat?.stop();
    await otherChat?.stop();
    await s3?.close();
  });

  /** Every reply body of the test, to prove no secret is in any. */
  const replies: string[] = [];
  const get = async (query: Record<string, string> = {}, token = admin) => {
    const reply = await t.call<InitConfig>('GET', api('/init_config/get_config'), {
      token,
      query,
      headers: EN,
    });
    replies.push(reply.raw);
    return reply;
  };
  const set = async (body: unknown, token = admin) => {
    const reply = await t.call<InitConfig>('POST', api('/init_config/set_config'), {
      token,
      body,
      headers: EN,
    });
    replies.push(reply.raw);
    return reply;
  };
  const test = async (group: string, token = admin, lang = 'en-US') => {
    const reply = await t.call<InitConfigTestReply>('POST', api('/init_config/test'), {
      token,
      body: { group },
      headers: { lang },
    });
    replies.push(reply.raw);
    return reply;
  };
  const upload = async (
    fields: Record<string, string>,
    file?: { name: string; content: string },
  ) => {
    const form = multipart(fields, file);
    const reply = await t.call<InitConfig>('POST', api('/init_config/upload_cert'), {
      token: admin,
      headers: EN,
      ...form,
    });
    replies.push(reply.raw);
    return reply;
  };
  const rows = () =>
    t.db.selectFrom('integration_settings').selectAll().orderBy('kind').orderBy('name').execute();
  const audits = () =>
    t.db
      .selectFrom('audit_log')
      .select(['action', 'result', 'diff', 'error_code'])
      .where('action', 'like', 'init_config.%')
      .orderBy('id')
      .execute();

  it('answers every group, nothing set: plain values empty, secrets unset', async () => {
    await start();
    const reply = await get();
    expect(reply.body.code, reply.raw).toBe(1);
    expect(Object.keys(reply.body.data)).toEqual([
      'wechat_pay',
      'mini_program',
      'storage',
      'douyin',
      'sms',
      'ai_text',
    ]);
    expect(reply.body.data.ai_text).toEqual({
      base_url: '',
      api_key: unsetState,
      // The environment's default model (AI_TEXT_MODEL's default) is the value in use.
      model: 'gpt-4o-mini',
      timeout_seconds: '',
    });
    expect(reply.body.data.wechat_pay).toEqual({
      mch_id: '',
      apiv3_key: unsetState,
      serial_no: '',
      private_key: unsetState,
      certificate: unsetState,
    });
    const one = await get({ group: 'storage' });
    expect(Object.keys(one.body.data)).toEqual(['storage']);
    const bad = await get({ group: 'nope' });
    expect(bad.body).toMatchObject({ code: 0, msg: 'Choose a settings group' });
  });

  it('is for the admin only: partners and merchants are refused and change nothing', async () => {
    await start();
    for (const user of ['partner', 'merchant', 'agent']) {
      const token = await t.login(user);
      expect((await get({}, token)).body.code).not.toBe(1);
      const refused = await set({ group: 'ai_text', values: { model: 'x-model' } }, token);
      expect(refused.body.code, user).not.toBe(1);
      expect((await test('ai_text', token)).body.code).not.toBe(1);
    }
    expect(await rows()).toEqual([]);
    const anonymous = await t.call<unknown>('POST', api('/init_config/set_config'), {
      body: { group: 'ai_text', values: { model: 'x' } },
    });
    expect(anonymous.body.code).not.toBe(1);
    const partnerUpload = await t.call<unknown>('POST', api('/init_config/upload_cert'), {
      token: await t.login('partner'),
      ...multipart({ kind: 'private_key' }, { name: 'k.pem', content: pems.key }),
    });
    expect(partnerUpload.body.code, partnerUpload.raw).not.toBe(1);
    expect(await rows()).toEqual([]);
  });

  it('sets plain values and a secret, shows the secret only as its state, audited as changed', async () => {
    await start();
    const saved = await set({
      group: 'ai_text',
      values: {
        base_url: ` ${chat.url} `,
        api_key: AI_KEY,
        model: 'tiny-model',
        timeout_seconds: 20,
      },
    });
    expect(saved.body.code, saved.raw).toBe(1);
    expect(saved.body.msg).toBe('Settings saved');
    expect(saved.body.data.ai_text).toEqual({
      base_url: chat.url,
      api_key: {
        configured: true,
        source: 'settings',
        last4: AI_KEY.slice(-4),
        updated_at: T0,
        updated_by: 'admin',
      },
      model: 'tiny-model',
      timeout_seconds: '20',
    });
    expect((await get({ group: 'ai_text' })).body.data).toEqual(saved.body.data);
    // Sealed at rest, under the integration's own kind and name (the same row /integration/list shows).
    const stored = await rows();
    expect(stored.map((r) => `${r.kind}.${r.name}`)).toEqual([
      'ai-text.api_key',
      'ai-text.base_url',
      'ai-text.model',
      'ai-text.timeout_seconds',
    ]);
    for (const row of stored) expect(row.sealed).not.toContain(AI_KEY);
    expect(await t.app.ctx.secrets.read('ai-text', 'api_key')).toBe(AI_KEY);

    // An empty secret leaves it unchanged; a plain value changes alone.
    t.clock.advance(1000);
    const again = await set({ group: 'ai_text', values: { api_key: '', model: 'bigger-model' } });
    expect(again.body.data.ai_text).toMatchObject({
      api_key: { configured: true, last4: AI_KEY.slice(-4), updated_at: T0 },
      model: 'bigger-model',
    });
    expect(await t.app.ctx.secrets.read('ai-text', 'api_key')).toBe(AI_KEY);

    // Saving the same values again changes nothing: no audit row.
    const same = await set({ group: 'ai_text', values: { model: 'bigger-model', api_key: '' } });
    expect(same.body.code).toBe(1);

    // Clearing is explicit; a plain value set to '' goes back to the environment's default.
    const cleared = await set({ group: 'ai_text', values: { model: '' }, clear: ['api_key'] });
    expect(cleared.body.data.ai_text).toMatchObject({ api_key: unsetState, model: 'gpt-4o-mini' });
    expect(await t.app.ctx.secrets.read('ai-text', 'api_key')).toBeUndefined();

    const entries = await audits();
    expect(entries.map((a) => [a.action, a.result])).toEqual([
      ['init_config.set', 'ok'],
      ['init_config.set', 'ok'],
      ['init_config.set', 'ok'],
    ]);
    expect(JSON.parse(entries[0].diff)).toEqual({
      'ai_text.base_url': { before: null, after: chat.url },
      'ai_text.api_key': 'changed',
      'ai_text.model': { before: null, after: 'tiny-model' },
      'ai_text.timeout_seconds': { before: null, after: '20' },
    });
    expect(JSON.parse(entries[1].diff)).toEqual({
      'ai_text.model': { before: 'tiny-model', after: 'bigger-model' },
    });
    expect(JSON.parse(entries[2].diff)).toEqual({
      'ai_text.api_key': 'changed',
      'ai_text.model': { before: 'bigger-model', after: null },
    });
    // The secret is in no reply, no audit row, no log line.
    const everything = [...replies, ...entries.map((a) => a.diff), ...logLines].join('\n');
    expect(everything).not.toContain(AI_KEY);
    expect(everything).not.toContain(AI_KEY.slice(0, 12));
  });

  it('refuses bad values with a message naming the field, and changes nothing', async () => {
    await start();
    await set({ group: 'storage', values: { bucket: 'kept-bucket' } });
    const before = await rows();
    const cases: [unknown, string][] = [
      [{ group: 'nope', values: {} }, 'Choose a settings group'],
      [{ group: 'storage', values: { nope: 'x' } }, 'nope: this group has no such setting'],
      [
        { group: 'storage', values: { endpoint: 'ftp://x' } },
        'endpoint: must be an http:// or https:// address',
      ],
      [
        { group: 'storage', values: { bucket: 'Bad_Bucket' } },
        'bucket: is not in the expected format',
      ],
      [
        { group: 'ai_text', values: { timeout_seconds: 0 } },
        'timeout_seconds: must be a whole number within the allowed range',
      ],
      [
        { group: 'ai_text', values: { timeout_seconds: '121' } },
        'timeout_seconds: must be a whole number within the allowed range',
      ],
      [
        { group: 'ai_text', values: { timeout_seconds: '1.5' } },
        'timeout_seconds: must be a whole number within the allowed range',
      ],
      [
        { group: 'wechat_pay', values: { apiv3_key: 'short' } },
        'apiv3_key: is not in the expected format',
      ],
      [
        { group: 'wechat_pay', values: { private_key: 'x' } },
        'private_key: is set by uploading its file',
      ],
      [
        { group: 'mini_program', values: { appid: 'wx123' } },
        'appid: is not in the expected format',
      ],
      [
        { group: 'storage', values: { secret_key: STORAGE_SECRET }, clear: ['secret_key'] },
        'secret_key: cannot be given a value and cleared at once',
      ],
      [{ group: 'storage', values: {}, clear: ['nope'] }, 'nope: this group has no such setting'],
      [
        { group: 'storage', values: { bucket: 'ok-bucket', region: 'x\u0000' } },
        'region: Must not contain control characters (such as NUL)',
      ],
      [{ group: 'storage', values: {}, extra: 1 }, 'Unknown field: extra'],
    ];
    for (const [body, msg] of cases) {
      const reply = await set(body);
      expect(reply.body.code, JSON.stringify(body)).toBe(0);
      expect(reply.body.msg.toLowerCase(), JSON.stringify(body)).toBe(msg.toLowerCase());
    }
    expect(await rows()).toEqual(before);
    const zh = await t.call('POST', api('/init_config/set_config'), {
      token: admin,
      body: { group: 'storage', values: { endpoint: 'nope' } },
      headers: { lang: 'zh-CN' },
    });
    expect(zh.body).toMatchObject({ code: 0, msg: 'endpoint：须为 http:// 或 https:// 地址' });
  });

  it('never exposes a secret through get_simple_config', async () => {
    await start();
    await set({ group: 'storage', values: { secret_key: STORAGE_SECRET, bucket: 'my-bucket' } });
    await set({ group: 'ai_text', values: { api_key: AI_KEY } });
    const reply = await t.call('GET', api('/platform/get_simple_config'), {
      query: { group: 'show_config,resource' },
    });
    expect(reply.body).toMatchObject({ code: 1 });
    expect(reply.raw).not.toContain(STORAGE_SECRET);
    expect(reply.raw).not.toContain(AI_KEY);
    expect(reply.raw).not.toContain('secret');
  });

  it('uploads the WeChat Pay key and certificate, checked to be PEM of their kind', async () => {
    await start();
    const key = await upload(
      { kind: 'private_key' },
      { name: 'apiclient_key.pem', content: pems.key },
    );
    expect(key.body.code, key.raw).toBe(1);
    expect(key.body.msg).toBe('File saved');
    expect(key.body.data.wechat_pay.private_key).toEqual({
      configured: true,
      source: 'settings',
      last4: null,
      updated_at: T0,
      updated_by: 'admin',
    });
    const cert = await upload(
      { kind: 'certificate' },
      { name: 'apiclient_cert.pem', content: pems.cert },
    );
    expect(cert.body.code, cert.raw).toBe(1);
    expect((await t.app.ctx.secrets.read('payment', 'wechat_private_key'))?.trim()).toBe(
      pems.key.trim(),
    );

    const before = await rows();
    const refusals: [
      Record<string, string>,
      { name: string; content: string } | undefined,
      string,
    ][] = [
      [
        { kind: 'private_key' },
        { name: 'cert.pem', content: pems.cert },
        'The file is not an RSA private key in PEM format (apiclient_key.pem)',
      ],
      [
        { kind: 'certificate' },
        { name: 'key.pem', content: pems.key },
        'The file is not a certificate in PEM format (apiclient_cert.pem)',
      ],
      [
        { kind: 'certificate' },
        {
          name: 'junk.pem',
          content: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----',
        },
        'The file is not a certificate in PEM format (apiclient_cert.pem)',
      ],
      [
        { kind: 'private_key' },
        { name: 'big.pem', content: 'x'.repeat(20_000) },
        'The file is too large: at most 16 KB',
      ],
      [
        { kind: 'other' },
        { name: 'key.pem', content: pems.key },
        'Choose the private key or the certificate',
      ],
      [{ kind: 'private_key' }, undefined, 'Choose a file to upload'],
    ];
    for (const [fields, file, msg] of refusals) {
      const reply = await upload(fields, file);
      expect(reply.body, msg).toMatchObject({ code: 0, msg });
    }
    expect(await rows()).toEqual(before);
    const entries = (await audits()).filter((a) => a.result === 'ok');
    expect(entries.map((a) => JSON.parse(a.diff))).toEqual([
      { 'wechat_pay.private_key': 'changed' },
      { 'wechat_pay.certificate': 'changed' },
    ]);
    const everything = [...replies, ...(await audits()).map((a) => a.diff), ...logLines].join('\n');
    expect(everything).not.toContain('PRIVATE KEY');
    expect(everything).not.toContain(pems.key.split('\n')[1]);
  });

  it('a stored AI text address, key and model win over the environment at the next call', async () => {
    await start({
      config: {
        aiText: {
          provider: 'openai',
          baseUrl: otherChat.url,
          model: 'env-model',
          apiKey: 'sk-environment-key-000000',
        },
      },
    });
    const merchant = await t.login('merchant');
    const imitate = () =>
      t.call<ImitateTitleReply>('POST', api('/matrix/ai_imitate_title'), {
        token: merchant,
        body: { title: 'How to cook rice well', count: 1, platform: 'douyin' },
        headers: EN,
      });
    expect((await imitate()).body.code).toBe(1);
    expect(otherChat.seen.at(-1)).toMatchObject({ model: 'env-model' });
    const chatCalls = chat.seen.length;

    await set({
      group: 'ai_text',
      values: { base_url: chat.url, api_key: AI_KEY, model: 'stored-model' },
    });
    const reply = await imitate();
    expect(reply.body, reply.raw).toMatchObject({ code: 1, data: { titles: ['Fake title one'] } });
    expect(chat.seen.length).toBe(chatCalls + 1);
    expect(chat.seen.at(-1)).toMatchObject({
      url: '/v1/chat/completions',
      authorization: `Bearer ${AI_KEY}`,
      model: 'stored-model',
    });
  });

  it('an AI text address stored on an embedded installation switches to the service at once', async () => {
    await start();
    const merchant = await t.login('merchant');
    const imitate = () =>
      t.call<ImitateTitleReply>('POST', api('/matrix/ai_imitate_title'), {
        token: merchant,
        body: { title: 'How to cook rice well', count: 1, platform: 'douyin' },
        headers: EN,
      });
    expect((await imitate()).body.data).toMatchObject({ demonstration: true });
    await set({ group: 'ai_text', values: { base_url: chat.url, api_key: AI_KEY } });
    expect((await imitate()).body.data).toEqual({
      titles: ['Fake title one'],
      demonstration: false,
    });
    await set({ group: 'ai_text', values: { base_url: '' } });
    expect((await imitate()).body.data).toMatchObject({ demonstration: true });
  });

  it('tests the AI text connection: embedded, the service, a refused key', async () => {
    await start();
    expect((await test('ai_text')).body.data).toEqual({
      ok: true,
      message: 'The embedded demonstration provider answered (no AI text service address is set)',
    });
    await set({ group: 'ai_text', values: { base_url: chat.url, api_key: AI_KEY } });
    expect((await test('ai_text')).body.data).toEqual({
      ok: true,
      message: 'Connected: the model answered “Fake title one”',
    });
    await set({ group: 'ai_text', values: { api_key: 'sk-wrong-key-1234567890' } });
    expect((await test('ai_text')).body.data).toEqual({
      ok: false,
      message:
        'The AI text service failed: The AI text service refused our API key: an administrator must set it again',
    });
    const zh = await test('ai_text', admin, 'zh-CN');
    expect(zh.body.data).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^AI 文本服务失败：/),
    });
    expect((await test('nope')).body).toMatchObject({ code: 0, msg: 'Choose a settings group' });
  });

  it('tests the storage connection: put, get and delete a small object', async () => {
    await start();
    expect((await test('storage')).body.data).toEqual({
      ok: false,
      message: 'Not set up yet: bucket, access_key, secret_key',
    });
    const { endpoint, bucket, accessKeyId, secretAccessKey, region } = s3.config;
    const saved = await set({
      group: 'storage',
      values: { endpoint, bucket, region, access_key: accessKeyId, secret_key: secretAccessKey },
    });
    expect(saved.body.code, saved.raw).toBe(1);
    const seenBefore = s3.seen.length;
    const ok = await test('storage');
    expect(ok.body.data, ok.raw).toEqual({
      ok: true,
      message: `Connected: a test object was written, read back and deleted in bucket ${bucket}`,
    });
    const calls = s3.seen.slice(seenBefore).map((line) => line.split(' ')[0]);
    expect(calls).toEqual(['PUT', 'GET', 'DELETE']);
    await set({ group: 'storage', values: { bucket: 'no-such-bucket' } });
    const failed = await test('storage');
    expect(failed.body.data).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^The storage could not be used: NoSuchBucket/),
    });
  });

  it('tests the Douyin connection: the client token from the sandbox platform', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    await start({
      config: {
        publicUrl: base,
        socialSandbox: true,
        socialSandboxSecret: DOUYIN_SECRET,
        douyin: {
          clientKey: undefined,
          clientSecret: undefined,
          baseUrl: `${base}/sandbox-platform`,
        },
      },
    });
    await t.app.listen({ port, host: '127.0.0.1' });
    expect((await test('douyin')).body.data).toEqual({
      ok: false,
      message: 'Not set up yet: client_key, client_secret',
    });
    await set({ group: 'douyin', values: { client_key: 'sandbox', client_secret: DOUYIN_SECRET } });
    expect((await test('douyin')).body.data).toEqual({
      ok: true,
      message: 'Connected: Douyin issued a client token',
    });
    await set({ group: 'douyin', values: { client_secret: 'wrong-secret-2718281828' } });
    const failed = await test('douyin');
    expect(failed.body.data).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^Douyin refused or could not be reached: 10013/),
    });
    expect([...replies, ...logLines].join('\n')).not.toContain(DOUYIN_SECRET);
  });

  it('tests the WeChat Pay connection: the platform certificates, signed and opened', async () => {
    const APIV3 = 'Apiv3Key0123456789abcdefABCDEF01';
    const MCH_ID = '1900000001';
    const SERIAL = '5157F09EFDC096DE15EBE81A47057A7232F1B8E1';
    const fake = await startFakeWechatPay({
      mchId: MCH_ID,
      serialNo: SERIAL,
      publicKey: createPublicKey(pems.key),
      apiv3Key: APIV3,
      platformCert: pems.cert,
    });
    try {
      await start({ config: { wechatPayBaseUrl: fake.url } });
      expect((await test('wechat_pay')).body.data).toEqual({
        ok: false,
        message: 'Not set up yet: mch_id, serial_no, private_key, apiv3_key',
      });
      const saved = await set({
        group: 'wechat_pay',
        values: { mch_id: MCH_ID, serial_no: SERIAL, apiv3_key: APIV3 },
      });
      expect(saved.body.code, saved.raw).toBe(1);
      await upload({ kind: 'private_key' }, { name: 'apiclient_key.pem', content: pems.key });
      expect((await test('wechat_pay')).body.data).toEqual({
        ok: true,
        message:
          'Connected: WeChat Pay answered 1 platform certificate(s), opened with the APIv3 key',
      });
      expect(fake.seen).toEqual(['GET /v3/certificates']);

      await set({ group: 'wechat_pay', values: { apiv3_key: 'WrongKey0123456789abcdefABCDEF01' } });
      expect((await test('wechat_pay')).body.data).toEqual({
        ok: false,
        message:
          'WeChat Pay refused or could not be reached: WechatPayCheckError: the APIv3 key does not open the platform certificate',
      });
      await set({ group: 'wechat_pay', values: { apiv3_key: APIV3, serial_no: 'ABCDEF0123' } });
      expect((await test('wechat_pay')).body.data).toEqual({
        ok: false,
        message:
          'WeChat Pay refused or could not be reached: WechatPayCheckError: HTTP 401 SIGN_ERROR: signature verification failed',
      });
      const everything = [...replies, ...logLines].join('\n');
      expect(everything).not.toContain(APIV3);
      expect(everything).not.toContain(pems.key.split('\n')[1]);
    } finally {
      await fake.stop();
    }
  });

  it('tests the mini program: the stable access token, asked for without replacing the one in use', async () => {
    const APPID = 'wx0123456789abcdef';
    const SECRET = 'mini-program-app-secret-0123456789ab';
    const fake = await startFakeWechatApi({ appid: APPID, secret: SECRET });
    try {
      await start({ config: { wechatApiBaseUrl: fake.url } });
      expect((await test('mini_program')).body.data).toEqual({
        ok: false,
        message: 'Not set up yet: appid, app_secret',
      });
      await set({ group: 'mini_program', values: { appid: APPID, app_secret: SECRET } });
      expect((await test('mini_program')).body.data).toEqual({
        ok: true,
        message: 'Connected: WeChat issued the mini program an access token',
      });
      expect(fake.seen).toEqual([
        {
          url: 'POST /cgi-bin/stable_token',
          body: {
            grant_type: 'client_credential',
            appid: APPID,
            secret: SECRET,
            force_refresh: false,
          },
        },
      ]);
      await set({ group: 'mini_program', values: { app_secret: 'a-wrong-app-secret-000000000' } });
      expect((await test('mini_program')).body.data).toEqual({
        ok: false,
        message:
          'WeChat refused or could not be reached: MiniProgramCheckError: 40125: invalid appsecret',
      });
      const zh = await test('mini_program', admin, 'zh-CN');
      expect(zh.body.data).toEqual({
        ok: false,
        message: '微信拒绝或无法连接：MiniProgramCheckError: 40125: invalid appsecret',
      });
      expect([...replies, ...logLines].join('\n')).not.toContain(SECRET);
    } finally {
      await fake.stop();
    }
  });

  it('tests SMS: the signature and template asked for with the AccessKey, nothing sent', async () => {
    const account = {
      accessKeyId: 'LTAI5tInitConfigCheck',
      accessKeySecret: 'init-config-sms-secret-0123456789',
      signName: '极光视频',
      templateCode: 'SMS_200000001',
      templateName: '注册验证码',
    };
    const fake = await startFakeAliyunSms(account);
    try {
      await start();
      expect((await test('sms')).body.data).toEqual({
        ok: false,
        message: 'Not set up yet: access_key_id, access_key_secret, sign_name, template_code',
      });
      const saved = await set({
        group: 'sms',
        values: {
          endpoint: fake.url,
          access_key_id: account.accessKeyId,
          access_key_secret: account.accessKeySecret,
          sign_name: account.signName,
          template_code: account.templateCode,
        },
      });
      expect(saved.body.code, saved.raw).toBe(1);
      expect((await test('sms')).body.data).toEqual({
        ok: true,
        message:
          'Connected: the signature “极光视频” is approved and the template “注册验证码” was found (no message was sent)',
      });
      expect(fake.seen.map((p) => p.Action)).toEqual(['GetSmsSign', 'GetSmsTemplate']);
      expect(fake.seen[0].SignName).toBe(account.signName);
      expect(fake.seen[1].TemplateCode).toBe(account.templateCode);

      await set({ group: 'sms', values: { template_code: 'SMS_999999999' } });
      expect((await test('sms')).body.data).toEqual({
        ok: false,
        message:
          'The SMS service refused or could not be reached: isv.SMS_TEMPLATE_ILLEGAL: The SMS template is not found.',
      });
      await set({ group: 'sms', values: { access_key_secret: 'a-wrong-sms-secret-000000000' } });
      const zh = await test('sms', admin, 'zh-CN');
      expect(zh.body.data).toEqual({
        ok: false,
        message:
          '短信服务拒绝或无法连接：SignatureDoesNotMatch: Specified signature is not matched.',
      });
      expect(fake.seen.some((p) => p.Action === 'SendSms')).toBe(false);
      expect([...replies, ...logLines].join('\n')).not.toContain(account.accessKeySecret);
    } finally {
      await fake.stop();
    }
  });
});
