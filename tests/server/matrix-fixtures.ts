import { expect } from 'vitest';
import type { AuthUrlReply } from '../../src/api/contract/matrix';
import { createTestApp, freePort, type TestApp, type TestAppOptions } from './helpers';
import type { Engine } from '../../server/platform/db/dialect';

/**
 * A test app on a real port with the sandbox platform on (docs/domain.md §19): the Douyin adapter
 * talks to it over HTTP as it would to Douyin. Binding follows the authorisation as a person
 * would: the platform's page, "授权" on one account, the callback.
 */
export interface SandboxWorld {
  t: TestApp;
  base: string;
  /** The sandbox's control API (`GET` without a body). */
  control(path: string, body?: unknown): Promise<Record<string, unknown>>;
  sandboxAccounts(): Promise<{ open_id: string; nickname: string }[]>;
  authUrl(token: string, body?: object): Promise<string>;
  /** The platform's page → "授权" on `openId` → the callback's address. */
  authorise(url: string, openId: string): Promise<string>;
  /** The callback's answer: the accounts page's `bound` or `error`. */
  callback(location: string): Promise<URLSearchParams>;
  /** Binds `openId` for the holder of `token`; answers the account's id. */
  bind(openId: string, token: string, body?: object): Promise<number>;
}

const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&amp;/g, '&');

/**
 * The sandbox platform's authorisation page at `url` → "授权" on `openId` (its form posted as a
 * browser would) → the address the platform redirects to (our callback, with code and state).
 */
export async function authoriseOnSandbox(url: string, openId: string): Promise<string> {
  const page = await (await fetch(url)).text();
  const forms = [...page.matchAll(/<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/g)];
  const form = forms.find((f) => f[2].includes(`value="${openId}"`));
  expect(form, `a form for ${openId}`).toBeDefined();
  const fields = new URLSearchParams();
  for (const [, name, value] of form![2].matchAll(/name="([^"]+)" value="([^"]*)"/g)) {
    fields.set(name, unescape(value));
  }
  const action = new URL(unescape(form![1]), url).toString();
  const back = await fetch(action, { method: 'POST', body: fields, redirect: 'manual' });
  expect(back.status).toBe(302);
  return back.headers.get('location')!;
}

export async function sandboxWorld(
  engine: Engine,
  options: TestAppOptions = {},
  /** Settings that need the world's address (e.g. Douyin's base URL on the sandbox). */
  configAt?: (base: string) => TestAppOptions['config'],
): Promise<SandboxWorld> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await createTestApp(engine, {
    ...options,
    config: { publicUrl: base, socialSandbox: true, ...options.config, ...configAt?.(base) },
  });
  await t.app.listen({ port, host: '127.0.0.1' });

  const control: SandboxWorld['control'] = async (path, body) => {
    const response = await fetch(`${base}/sandbox-platform/__control/${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status, path).toBe(200);
    return response.json() as Promise<Record<string, unknown>>;
  };

  const callback: SandboxWorld['callback'] = async (location) => {
    const response = await fetch(new URL(location, base), { redirect: 'manual' });
    expect(response.status).toBe(302);
    const target = new URL(response.headers.get('location')!, base);
    expect(target.pathname).toBe('/matrix-distribution/authorization');
    return target.searchParams;
  };

  const authUrl: SandboxWorld['authUrl'] = async (token, body = { platform: 'douyin' }) => {
    const reply = await t.post<AuthUrlReply>('/matrix/auth_url', body, token);
    expect(reply.body.code, reply.raw).toBe(1);
    return reply.body.data.url;
  };

  return {
    t,
    base,
    control,
    sandboxAccounts: async () =>
      (await control('accounts')).list as { open_id: string; nickname: string }[],
    authUrl,
    authorise: authoriseOnSandbox,
    callback,
    async bind(openId, token, body) {
      const result = await callback(await authoriseOnSandbox(await authUrl(token, body), openId));
      expect(result.get('error')).toBeNull();
      return Number(result.get('bound'));
    },
  };
}
