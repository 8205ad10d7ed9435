import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/platform/config';
import {
  loadSecretKeys,
  parseSecretKeys,
  SECRETS_KEY_FILE,
} from '../../server/platform/secrets/keys';
import {
  createSealer,
  SecretError,
  type SealedPlace,
  type SecretKey,
} from '../../server/platform/secrets/sealed';
import { createSecretStore } from '../../server/platform/secrets/store';
import { createTestDatabase, engines, T0, type TestDatabase } from './helpers';

/**
 * Sealed secrets (docs/architecture.md §Secrets): AES-256-GCM bound to `table:field:row`, the key
 * id in the sealed text; rotation keeps old keys for opening; every failure to open is loud.
 */
const key = (id: string): SecretKey => ({ id, key: randomBytes(32) });
const PLACE: SealedPlace = { table: 'integration_settings', field: 'sealed', row: 'dh.api_key' };
const PLAIN = 'sk-live-Ωmega-0123456789';

/** The error a call throws (fails the test when it does not throw). */
function thrown(work: () => unknown): Error {
  try {
    work();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}

/** A loud failure: a SecretError naming the place, never the value nor the sealed text. */
function expectLoud(error: Error, sealed: string, ...says: (string | RegExp)[]) {
  expect(error).toBeInstanceOf(SecretError);
  for (const text of says) expect(error.message).toMatch(text);
  expect(error.message).not.toContain(PLAIN);
  expect(error.message).not.toContain(sealed.split(':')[4] || sealed);
}

/** The sealed text with one byte of one part (2 iv, 3 tag, 4 ciphertext) changed. */
function flipped(sealed: string, part: number): string {
  const parts = sealed.split(':');
  const bytes = Buffer.from(parts[part], 'base64url');
  bytes[0] ^= 0x01;
  parts[part] = bytes.toString('base64url');
  return parts.join(':');
}

describe('sealing and opening', () => {
  const k1 = key('k1');
  const sealer = createSealer([k1], 'SECRETS_KEYS');

  it('round-trips, as v1:<kid>:<iv>:<tag>:<ciphertext> with a fresh 12-byte IV each time', () => {
    const sealed = sealer.seal(PLAIN, PLACE);
    expect(sealed).toMatch(/^v1:k1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]+$/);
    expect(Buffer.from(sealed.split(':')[2], 'base64url')).toHaveLength(12);
    expect(sealed).not.toContain(PLAIN);
    expect(sealer.open(sealed, PLACE)).toBe(PLAIN);
    const again = sealer.seal(PLAIN, PLACE);
    expect(again).not.toBe(sealed);
    expect(again.split(':')[2]).not.toBe(sealed.split(':')[2]);
    expect(sealer.open(again, PLACE)).toBe(PLAIN);
    expect(sealer.open(sealer.seal('', PLACE), PLACE)).toBe('');
  });

  it('after a rotation the old key id still opens and the new key seals', () => {
    const old = sealer.seal(PLAIN, PLACE);
    const k2 = key('k2');
    const rotated = createSealer([k2, k1], 'SECRETS_KEYS');
    expect(rotated.sealingKeyId).toBe('k2');
    expect(rotated.open(old, PLACE)).toBe(PLAIN);
    const fresh = rotated.seal(PLAIN, PLACE);
    expect(fresh.startsWith('v1:k2:')).toBe(true);
    expect(rotated.open(fresh, PLACE)).toBe(PLAIN);
    // A process still on the old keyring does not guess: it names the key it lacks.
    expectLoud(
      thrown(() => sealer.open(fresh, PLACE)),
      fresh,
      'key id "k2"',
      'SECRETS_KEYS',
      'integration_settings:sealed:dh.api_key',
    );
  });

  it('a flipped byte in the IV, the tag or the ciphertext fails loudly', () => {
    const sealed = sealer.seal(PLAIN, PLACE);
    for (const part of [2, 3, 4]) {
      const bad = flipped(sealed, part);
      expectLoud(
        thrown(() => sealer.open(bad, PLACE)),
        bad,
        'does not open with key id "k1"',
      );
    }
  });

  it('a value sealed for one row, field or table does not open for another', () => {
    const sealed = sealer.seal(PLAIN, PLACE);
    for (const other of [
      { ...PLACE, row: 'dh.callback_secret' },
      { ...PLACE, field: 'value' },
      { ...PLACE, table: 'social_accounts' },
    ]) {
      expectLoud(
        thrown(() => sealer.open(sealed, other)),
        sealed,
        `${other.table}:${other.field}:${other.row}`,
        'sealed for another place',
      );
    }
  });

  it('a wrong key under the same key id fails loudly, naming the key id', () => {
    const sealed = sealer.seal(PLAIN, PLACE);
    const impostor = createSealer([key('k1')], 'SECRETS_KEYS');
    expectLoud(
      thrown(() => impostor.open(sealed, PLACE)),
      sealed,
      'key id "k1"',
    );
  });

  it('a key id that is not configured fails loudly, naming it and the keys there are', () => {
    const sealed = sealer.seal(PLAIN, PLACE);
    const other = createSealer([key('k7'), key('k8')], 'SECRETS_KEYS');
    expectLoud(
      thrown(() => other.open(sealed, PLACE)),
      sealed,
      'key id "k1"',
      'SECRETS_KEYS does not hold',
      'k7, k8',
    );
  });

  it('text that is not a v1 sealed value fails loudly', () => {
    const sealed = sealer.seal(PLAIN, PLACE);
    const [, kid, iv, tag, ct] = sealed.split(':');
    for (const bad of [
      PLAIN,
      '',
      `v2:${kid}:${iv}:${tag}:${ct}`,
      `v1:${kid}:${iv}:${tag}`,
      `v1:${kid}:${iv}:${tag}:${ct}:extra`,
      `v1:${kid}:${iv}AA:${tag}:${ct}`,
      `v1:${kid}:${iv}:${tag.slice(1)}:${ct}`,
      `v1:${kid}:${iv}:${tag}:${ct}=`,
    ]) {
      expectLoud(
        thrown(() => sealer.open(bad, PLACE)),
        sealed,
        'is not v1',
      );
    }
  });

  it('refuses a keyring without keys, with a short key, or with an id twice', () => {
    expect(() => createSealer([], 'SECRETS_KEYS')).toThrow(SecretError);
    expect(() => createSealer([{ id: 'k1', key: randomBytes(16) }], 'X')).toThrow(/32 bytes/);
    expect(() => createSealer([key('k1'), key('k1')], 'X')).toThrow(/given twice/);
  });
});

describe('the keys', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vc-secrets-'));
  });
  afterEach(async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const b64 = () => randomBytes(32).toString('base64');

  it('SECRETS_KEYS is kid:base64,…, the first one sealing; SECRETS_KEY is one key, id k1', () => {
    const [a, b] = [b64(), b64()];
    const config = loadConfig({ SECRETS_KEYS: ` new:${a} , old:${b}` });
    const { keys, source } = loadSecretKeys(config);
    expect(source).toBe('SECRETS_KEYS');
    expect(keys.map((k) => [k.id, k.key.toString('base64')])).toEqual([
      ['new', a],
      ['old', b],
    ]);
    const single = loadSecretKeys(loadConfig({ SECRETS_KEY: a }));
    expect(single).toMatchObject({ source: 'SECRETS_KEY', keys: [{ id: 'k1' }] });
    // base64url without padding works too.
    const url = randomBytes(32).toString('base64url');
    expect(parseSecretKeys(`u:${url}`, 'X')[0].key.toString('base64url')).toBe(url);
  });

  it('refuses malformed keys at start, saying which', () => {
    const bad: [Record<string, string>, RegExp][] = [
      [{ SECRETS_KEYS: b64() }, /SECRETS_KEYS: key 1 must be <key id>:<base64 key>/],
      [{ SECRETS_KEYS: `k1:${b64()},k2:short` }, /SECRETS_KEYS: key "k2" is not 32 bytes/],
      [{ SECRETS_KEYS: `k1:${randomBytes(31).toString('base64')}` }, /key "k1" is not 32 bytes/],
      [{ SECRETS_KEYS: `bad id:${b64()}` }, /key 1 must be/],
      [{ SECRETS_KEYS: ' , ' }, /holds no key/],
      [{ SECRETS_KEY: 'not-base64!' }, /SECRETS_KEY is not 32 bytes/],
      [{ SECRETS_KEY: b64(), SECRETS_KEYS: `k1:${b64()}` }, /not both/],
    ];
    for (const [env, message] of bad) {
      expect(() => loadSecretKeys({ ...loadConfig(env), dataDir }), JSON.stringify(env)).toThrow(
        message,
      );
    }
    const twice = `k1:${b64()},k1:${b64()}`;
    expect(() => createSealer(parseSecretKeys(twice, 'SECRETS_KEYS'), 'SECRETS_KEYS')).toThrow(
      /"k1" is given twice/,
    );
  });

  it('without SECRETS_KEY(S), generates a key in DATA_DIR once (mode 0600) and keeps it', async () => {
    const first = loadSecretKeys({ dataDir });
    expect(first.source).toBe(`DATA_DIR/${SECRETS_KEY_FILE}`);
    expect(first.keys).toHaveLength(1);
    expect(first.keys[0].id).toBe('local');
    const file = path.join(dataDir, SECRETS_KEY_FILE);
    const stat = await fs.stat(file);
    expect(stat.mode & 0o777).toBe(0o600);
    const line = (await fs.readFile(file, 'utf8')).trim();
    expect(line).toMatch(/^local:[A-Za-z0-9+/]{43}=$/);
    const sealed = createSealer(first.keys, first.source).seal(PLAIN, PLACE);
    // A restart reads the same key; the file's line, copied into SECRETS_KEYS, opens it too.
    const again = loadSecretKeys({ dataDir });
    expect(createSealer(again.keys, again.source).open(sealed, PLACE)).toBe(PLAIN);
    const moved = loadSecretKeys({ dataDir, secretsKeys: `k2:${b64()},${line}` });
    expect(createSealer(moved.keys, moved.source).open(sealed, PLACE)).toBe(PLAIN);
  });
});

describe.each(engines)('the sealed settings store on %s', (engine) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase(engine);
  });
  afterEach(async () => {
    await database.drop();
  });

  it('stores sealed values, reads them back, lists them without values, clears them', async () => {
    const { db } = database.handle;
    const store = createSecretStore(db, createSealer([key('k1')], 'SECRETS_KEYS'));
    expect(await store.read('digital-human', 'api_key')).toBeUndefined();
    await store.write(db, {
      kind: 'digital-human',
      name: 'api_key',
      value: PLAIN,
      by: null,
      now: T0,
    });
    await store.write(db, {
      kind: 'digital-human',
      name: 'callback_secret',
      value: 'short',
      by: null,
      now: T0 + 1,
    });
    expect(await store.read('digital-human', 'api_key')).toBe(PLAIN);
    expect(await store.read('digital-human', 'callback_secret')).toBe('short');
    const rows = await db.selectFrom('integration_settings').selectAll().execute();
    expect(rows.map((r) => r.sealed).join('\n')).not.toContain(PLAIN);
    expect(await store.list()).toEqual([
      { kind: 'digital-human', name: 'api_key', last4: '6789', updated_at: T0, updated_by: null },
      {
        kind: 'digital-human',
        name: 'callback_secret',
        last4: null,
        updated_at: T0 + 1,
        updated_by: null,
      },
    ]);

    // Replacing seals again; a value moved to another row does not open there.
    await store.write(db, {
      kind: 'digital-human',
      name: 'api_key',
      value: 'x'.repeat(20),
      by: null,
      now: T0 + 2,
    });
    expect(await store.read('digital-human', 'api_key')).toBe('x'.repeat(20));
    const apiKey = await db
      .selectFrom('integration_settings')
      .select('sealed')
      .where('name', '=', 'api_key')
      .executeTakeFirstOrThrow();
    await db
      .updateTable('integration_settings')
      .set({ sealed: apiKey.sealed })
      .where('name', '=', 'callback_secret')
      .execute();
    await expect(store.read('digital-human', 'callback_secret')).rejects.toThrow(
      /integration_settings:sealed:digital-human\.callback_secret does not open/,
    );

    expect(await store.clear(db, 'digital-human', 'api_key')).toBe(true);
    expect(await store.clear(db, 'digital-human', 'api_key')).toBe(false);
    expect(await store.read('digital-human', 'api_key')).toBeUndefined();
  });

  it('a store on another key fails loudly instead of answering nothing', async () => {
    const { db } = database.handle;
    const mine = createSecretStore(db, createSealer([key('k1')], 'SECRETS_KEYS'));
    await mine.write(db, { kind: 'sms', name: 'access_secret', value: PLAIN, by: null, now: T0 });
    const stranger = createSecretStore(db, createSealer([key('k9')], 'SECRETS_KEYS'));
    await expect(stranger.read('sms', 'access_secret')).rejects.toThrow(
      /sealed with key id "k1", which SECRETS_KEYS does not hold/,
    );
  });
});
