import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AccountPage } from '../../src/api/contract/matrix';
import { dispatchDuePosts, publishPost } from '../../server/modules/matrix/publish';
import { keepAccountsAlive } from '../../server/modules/matrix/tokens';
import { engines, type TestApp } from './helpers';
import { sandboxWorld } from './matrix-fixtures';
import { fixtureBytes } from './media-fixtures';
import { putResource } from './resource-fixtures';

/**
 * A social account's tokens never leave the server (docs/domain.md §19): not in any reply, not in
 * any log line (at trace level), sealed or plain, through binding, refreshing and publishing.
 */
vi.setConfig({ testTimeout: 60_000 });

describe.each(engines)('matrix tokens stay secret on %s', (engine) => {
  let t: TestApp | undefined;
  afterEach(async () => t?.close());

  it('no reply and no log line carries a token, plain or sealed', async () => {
    const logged: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logged.push(String(chunk));
        done();
      },
    });
    const w = await sandboxWorld(engine, { logger: { level: 'trace', stream } });
    t = w.t;
    const replies: string[] = [];
    const keep = <T extends { raw: string }>(reply: T) => {
      replies.push(reply.raw);
      return reply;
    };
    const merchant = await t.login('merchant');
    const [sandbox] = await w.sandboxAccounts();
    const id = await w.bind(sandbox.open_id, merchant);
    keep(await t.get<AccountPage>('/matrix/account_list', {}, merchant));
    keep(await t.post('/matrix/account_refresh', { id }, merchant));
    t.clock.advance(13 * 24 * 3600_000);
    await keepAccountsAlive(t.app.ctx);

    const owner = (await t.user('merchant')).id;
    const bytes = await fixtureBytes('clip.mp4');
    const resource = await putResource(t, owner, { name: '开箱', bytes });
    const day = new Date(t.clock() + 8 * 3600_000 + 24 * 3600_000).toISOString().slice(0, 10);
    const token = await t.login('merchant');
    const plan = keep(
      await t.post<{ id: number }>(
        '/matrix/plan_add',
        {
          name: '密钥测试',
          account_ids: [id],
          media: [{ type: 'resource', id: resource.id }],
          titles: ['开箱'],
          start_date: day,
          end_date: day,
          slots: ['10:00'],
          daily_max: 1,
        },
        token,
      ),
    );
    const posts = keep(
      await t.get<{ list: { id: number }[] }>(
        '/matrix/post_list',
        { plan_id: String(plan.body.data.id) },
        token,
      ),
    );
    keep(await t.post('/matrix/post_publish_now', { id: posts.body.data.list[0].id }, token));
    await dispatchDuePosts(t.app.ctx);
    const job = await t.db
      .selectFrom('jobs')
      .select('data')
      .where('kind', '=', 'matrix-publish')
      .executeTakeFirstOrThrow();
    await publishPost(t.app.ctx, {
      id: 'test',
      kind: 'matrix-publish',
      data: JSON.parse(job.data) as { post_id: number; dispatch: number },
      attempt: 1,
      maxAttempts: 5,
      signal: new AbortController().signal,
      progress: async () => {},
    });
    keep(await t.get('/matrix/post_list', { plan_id: String(plan.body.data.id) }, token));

    // Every token the sandbox ever issued, and the sealed values in our rows.
    const issued = [
      ...(await t.db.selectFrom('sandbox_platform_access_tokens').select('token').execute()),
      ...(await t.db.selectFrom('sandbox_platform_refresh_tokens').select('token').execute()),
    ].map((r) => r.token);
    const row = await t.db
      .selectFrom('matrix_accounts')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const secrets = [...issued, row.access_token, row.refresh_token];
    expect(issued.length).toBeGreaterThanOrEqual(4);
    expect(logged.length).toBeGreaterThan(10);
    const everything = [...replies, ...logged].join('\n');
    for (const secret of secrets) {
      const line = [...replies, ...logged].find((l) => l.includes(secret));
      expect(line, 'a reply or log line with a token').toBeUndefined();
    }
    expect(everything).not.toMatch(/v1:[A-Za-z0-9_-]+:[A-Za-z0-9_-]{16}:/);
  });
});
