import { createHmac } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IntegrationList, SecretField } from '../../src/api/contract/integrations';
import { ProviderError } from '../../server/integrations/digital-human/types';
import { api, createTestApp, engines, T0, type TestApp, type TestAppOptions } from './helpers';
import { startFakeVendor, type FakeVendor } from './fake-dh-vendor';

/**
 * The integrations' settings (docs/architecture.md §Secrets): admin only; per kind the providers in
 * use and each secret field's state; a secret set here is sealed, wins over the environment's,
 * takes effect at the next use; no reply or log line carries a secret, plain or sealed.
 */
const EN = { lang: 'en-US' };
const API_KEY = 'vendor-api-key-7b1e9c2d4f';
const CALLBACK_SECRET = 'vendor-callback-secret-55aa33';

const unset = (name: string, env: string) => ({
  name,
  provider: 'http',
  env,
  configured: false,
  source: null,
  last4: null,
  updated_at: null,
  updated_by: null,
});

describe.each(engines)('integration settings on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  const start = async (options: TestAppOptions = {}) => {
    t = await createTestApp(engine, options);
    admin = await t.login('admin');
  };
  afterEach(async () => {
    await t?.close();
  });

  const list = async () => {
    const reply = await t.call<IntegrationList>('GET', api('/integration/list'), {
      token: admin,
      headers: EN,
    });
    expect(reply.body.code, reply.raw).toBe(1);
    return reply.body.data.list;
  };
  const dhSecrets = async () => (await list()).find((i) => i.kind === 'digital-human')!.secrets;
  const set = (body: unknown, token = admin) =>
    t.call<SecretField>('POST', api('/integration/set_secret'), { token, body, headers: EN });
  const clear = (body: unknown, token = admin) =>
    t.call<SecretField>('POST', api('/integration/clear_secret'), { token, body, headers: EN });
  const rows = () => t.db.selectFrom('integration_settings').selectAll().execute();
  const audits = () =>
    t.db
      .selectFrom('audit_log')
      .select(['action', 'actor_id', 'target_type', 'diff'])
      .where('action', 'like', 'integration.%')
      .where('result', '=', 'ok')
      .orderBy('id')
      .execute();

  it('lists every kind with the providers in use and each secret field, none set', async () => {
    await start({ realSms: true });
    expect(await list()).toEqual([
      { kind: 'payment', providers: ['sandbox'], secrets: [] },
      { kind: 'sms', providers: ['log'], secrets: [] },
      {
        kind: 'digital-human',
        providers: ['embedded'],
        secrets: [unset('api_key', 'DH_API_KEY'), unset('callback_secret', 'DH_CALLBACK_SECRET')],
      },
      {
        kind: 'social',
        providers: ['sandbox'],
        secrets: [{ ...unset('douyin_client_secret', 'DOUYIN_CLIENT_SECRET'), provider: 'douyin' }],
      },
      {
        kind: 'ai-text',
        providers: ['embedded'],
        secrets: [{ ...unset('api_key', 'AI_TEXT_API_KEY'), provider: 'openai' }],
      },
    ]);
    await t.close();
    await start({ config: { paymentSandbox: false } });
    expect((await list()).find((i) => i.kind === 'payment')?.providers).toEqual([]);
  });

  it('sets a secret sealed, shows only its state, replaces and clears it, audited', async () => {
    await start();
    const adminId = Number((await t.user('admin')).id);
    const saved = await set({ kind: 'digital-human', name: 'api_key', value: ` ${API_KEY} ` });
    expect(saved.body).toEqual({
      code: 1,
      msg: 'Secret saved',
      data: {
        name: 'api_key',
        provider: 'http',
        env: 'DH_API_KEY',
        configured: true,
        source: 'settings',
        last4: API_KEY.slice(-4),
        updated_at: T0,
        updated_by: 'admin',
      },
    });
    expect((await dhSecrets())[0]).toEqual(saved.body.data);
    const [row] = await rows();
    expect(row).toMatchObject({ kind: 'digital-human', name: 'api_key', last4: API_KEY.slice(-4) });
    expect(row.sealed).toMatch(/^v1:local:/);
    expect(row.sealed).not.toContain(API_KEY);
    // Stored trimmed: the vendor gets the key as pasted, without the stray spaces.
    expect(await t.app.ctx.secrets.read('digital-human', 'api_key')).toBe(API_KEY);

    // A short value shows no last four characters.
    t.clock.advance(1000);
    const short = await set({ kind: 'digital-human', name: 'api_key', value: 'abc123' });
    expect(short.body.data).toMatchObject({ last4: null, updated_at: T0 + 1000 });
    expect(await t.app.ctx.secrets.read('digital-human', 'api_key')).toBe('abc123');

    const cleared = await clear({ kind: 'digital-human', name: 'api_key' });
    expect(cleared.body).toEqual({
      code: 1,
      msg: 'Secret cleared',
      data: unset('api_key', 'DH_API_KEY'),
    });
    expect(await rows()).toEqual([]);
    // Clearing again changes nothing and is not audited twice.
    expect((await clear({ kind: 'digital-human', name: 'api_key' })).body.code).toBe(1);
    const entries = await audits();
    expect(entries.map((a) => [a.action, Number(a.actor_id), a.target_type])).toEqual([
      ['integration.set_secret', adminId, 'integration_setting'],
      ['integration.set_secret', adminId, 'integration_setting'],
      ['integration.clear_secret', adminId, 'integration_setting'],
    ]);
    for (const [i, entry] of entries.entries()) {
      const side = i < 2 ? 'after' : 'before';
      expect(JSON.parse(entry.diff)).toEqual({
        kind: { [side]: 'digital-human' },
        name: { [side]: 'api_key' },
        value: 'changed',
      });
    }
  });

  it('shows a secret given by the environment, and one set here as winning over it', async () => {
    await start({
      config: {
        digitalHuman: {
          provider: 'embedded',
          baseUrl: undefined,
          apiKey: 'from-the-environment-0000',
          callbackSecret: undefined,
        },
      },
    });
    const [apiKey] = await dhSecrets();
    expect(apiKey).toMatchObject({ configured: true, source: 'environment', last4: null });
    await set({ kind: 'digital-human', name: 'api_key', value: API_KEY });
    expect((await dhSecrets())[0]).toMatchObject({ source: 'settings', last4: API_KEY.slice(-4) });
    await clear({ kind: 'digital-human', name: 'api_key' });
    expect((await dhSecrets())[0]).toMatchObject({ configured: true, source: 'environment' });
  });

  it('refuses an empty value, an unknown field or kind, and changes nothing', async () => {
    await start();
    const refusals: [unknown, string][] = [
      [
        { kind: 'digital-human', name: 'api_key', value: '' },
        'Enter the secret (to remove a stored one, clear it)',
      ],
      [
        { kind: 'digital-human', name: 'api_key', value: '   ' },
        'Enter the secret (to remove a stored one, clear it)',
      ],
      [
        { kind: 'digital-human', name: 'api_key' },
        'Enter the secret (to remove a stored one, clear it)',
      ],
      [
        { kind: 'digital-human', name: 'password', value: API_KEY },
        'The digital-human integration has no secret named password',
      ],
      [
        { kind: 'sms', name: 'api_key', value: API_KEY },
        'The sms integration has no secret named api_key',
      ],
      [{ kind: 'douyin', name: 'api_key', value: API_KEY }, 'Choose an integration'],
      [{ kind: 'digital-human', name: 'API KEY', value: API_KEY }, 'Choose a secret field'],
      [{ kind: 'digital-human', name: 'api_key', value: 'x'.repeat(4097) }, 'value: Too long'],
      [
        { kind: 'digital-human', name: 'api_key', value: API_KEY, clear: true },
        'Unknown field: clear',
      ],
    ];
    for (const [body, msg] of refusals) {
      const reply = await set(body);
      const what = JSON.stringify(body).slice(0, 100);
      expect(reply.status, what).toBe(200);
      expect(reply.body, what).toMatchObject({ code: 0, msg, data: null });
    }
    expect((await clear({ kind: 'digital-human', name: 'nope' })).body).toMatchObject({
      code: 0,
      msg: 'The digital-human integration has no secret named nope',
    });
    expect(await rows()).toEqual([]);
    expect(await audits()).toEqual([]);
  });

  it('refuses everyone but an admin, changing nothing', async () => {
    await start();
    await set({ kind: 'digital-human', name: 'api_key', value: API_KEY });
    const before = JSON.stringify(await rows());
    for (const account of ['partner', 'merchant', 'agent']) {
      const token = await t.login(account);
      const body = { kind: 'digital-human', name: 'api_key', value: 'attacker-value-000000' };
      for (const reply of [
        await t.call('GET', api('/integration/list'), { token, headers: EN }),
        await set(body, token),
        await clear(body, token),
      ]) {
        expect(reply.status, account).toBe(403);
        expect(reply.body).toEqual({
          code: 0,
          msg: 'You do not have permission for this action',
          data: null,
        });
      }
    }
    const anonymous = await t.call('GET', api('/integration/list'), { headers: EN });
    expect(anonymous.status).toBe(401);
    expect(JSON.stringify(await rows())).toBe(before);
  });
});

describe.each(engines)('the HTTP vendor’s secrets from the settings on %s', (engine) => {
  let t: TestApp;
  let vendor: FakeVendor;
  let admin: string;
  let workDir: string;
  const logged: string[] = [];
  const replies: string[] = [];

  beforeEach(async () => {
    logged.length = 0;
    replies.length = 0;
    vendor = await startFakeVendor({
      apiKey: API_KEY,
      callbackSecret: CALLBACK_SECRET,
      stepMs: 20,
      deliverCallback: async () => 204,
    });
    workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vc-dh-secrets-'));
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logged.push(String(chunk));
        done();
      },
    });
    t = await createTestApp(engine, {
      logger: { level: 'trace', stream },
      config: {
        digitalHuman: {
          provider: 'http',
          baseUrl: vendor.url,
          // Stale values in the environment: the settings must win over them.
          apiKey: 'stale-environment-key',
          callbackSecret: 'stale-environment-secret',
        },
      },
    });
    admin = await t.login('admin');
  });
  afterEach(async () => {
    await t.close();
    vendor.release();
    await vendor.idle();
    await vendor.stop();
    await fs.rm(workDir, { recursive: true, force: true });
  });

  /** An admin call whose raw reply is kept for the leak scan. */
  async function call(method: 'GET' | 'POST', url: string, body?: unknown) {
    const reply = await t.call(method, api(url), { token: admin, body, headers: EN });
    replies.push(reply.raw);
    return reply;
  }

  const callback = async (secret: string) => {
    const body = JSON.stringify({ job_id: 'job-unknown', state: 'done' });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
    const reply = await t.call('POST', api('/digital_human/vendor_callback'), {
      payload: body,
      headers: { 'x-dh-timestamp': timestamp, 'x-dh-signature': signature },
    });
    replies.push(reply.raw);
    return reply.status;
  };

  /** Submits a voice clone and stops waiting once the vendor accepted it. */
  async function submitVoiceClone(): Promise<string> {
    const abort = new AbortController();
    let accepted = '';
    const run = t.app.ctx.integrations.digitalHuman.cloneVoice(
      { audio: { url: 'http://127.0.0.1:9/sample.wav' }, gender: 'female' },
      {
        workDir,
        signal: abort.signal,
        onSubmitted: async (id) => {
          accepted = id;
          abort.abort(new Error('enough'));
        },
      },
    );
    await run.catch((error: unknown) => {
      if (!accepted) throw error;
    });
    return accepted;
  }

  it('uses an API key and callback secret set here at once, over the environment’s, without a restart', async () => {
    vendor.hold();
    // The environment's key is refused: re-authorisation needed, not a retry.
    const refused = await submitVoiceClone().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ProviderError);
    expect(refused).toMatchObject({ kind: 'reauthorize', permanent: true });
    expect(await callback(CALLBACK_SECRET)).toBe(401);
    expect(await callback('stale-environment-secret')).toBe(200);

    await call('POST', '/integration/set_secret', {
      kind: 'digital-human',
      name: 'api_key',
      value: API_KEY,
    });
    await call('POST', '/integration/set_secret', {
      kind: 'digital-human',
      name: 'callback_secret',
      value: CALLBACK_SECRET,
    });
    expect(await submitVoiceClone()).toMatch(/./);
    expect(vendor.requestsTo('POST', '/v1/jobs').at(-1)?.headers.authorization).toBe(
      `Bearer ${API_KEY}`,
    );
    expect(await callback(CALLBACK_SECRET)).toBe(200);
    expect(await callback('stale-environment-secret')).toBe(401);

    // Cleared: the environment's values are used again.
    await call('POST', '/integration/clear_secret', {
      kind: 'digital-human',
      name: 'callback_secret',
    });
    expect(await callback('stale-environment-secret')).toBe(200);
  });

  it('never puts a secret, plain or sealed, in a reply or a log line', async () => {
    const values = { api_key: API_KEY, callback_secret: CALLBACK_SECRET };
    const sealed: string[] = [];
    for (const [name, value] of Object.entries(values)) {
      await call('POST', '/integration/set_secret', { kind: 'digital-human', name, value });
      const row = await t.db
        .selectFrom('integration_settings')
        .select('sealed')
        .where('name', '=', name)
        .executeTakeFirstOrThrow();
      sealed.push(row.sealed);
    }
    await call('GET', '/integration/list');
    // Refusals that carry the value: not echoed either.
    await call('POST', '/integration/set_secret', {
      kind: 'digital-human',
      name: 'nope',
      value: API_KEY,
    });
    await call('POST', '/integration/set_secret', {
      kind: 'digital-human',
      name: 'api_key',
      value: `${API_KEY}\u0000`,
    });
    await call('POST', '/integration/set_secret', {
      kind: 'sms',
      name: 'api_key',
      value: API_KEY,
      x: 1,
    });
    // The secrets in use: a vendor call and a callback, both logged at trace level.
    vendor.hold();
    await submitVoiceClone();
    expect(await callback(CALLBACK_SECRET)).toBe(200);
    await call('GET', '/integration/list');
    await call('POST', '/integration/clear_secret', { kind: 'digital-human', name: 'api_key' });
    await call('POST', '/integration/clear_secret', {
      kind: 'digital-human',
      name: 'callback_secret',
    });
    await call('GET', '/integration/list');

    const log = logged.join('');
    expect(log).toContain('/api/v1/integration/set_secret');
    expect(replies.length).toBeGreaterThanOrEqual(10);
    const texts = [...Object.values(values), ...sealed, ...sealed.map((s) => s.split(':')[4])];
    for (const text of texts) {
      expect(log, 'the server log').not.toContain(text);
      for (const reply of replies) expect(reply, 'a reply').not.toContain(text);
    }
  });
});
