/**
 * The area registry (src/app/actors/areas.ts): an area is made once, on first use, with the
 * endpoints a test provides; its actors start only when first used; a change of signed-in user
 * stops every area so nothing of one user reaches the next; wiring follows a change.
 */
import { afterEach, expect, test } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { AppActors } from '../../src/app/actors/actors-context';
import { areasOf, defineArea, lazyActors } from '../../src/app/actors/areas';
import { listActor } from '../../src/app/actors/factories';
import { authMachine } from '../../src/machines/auth';
import type { UserInfo } from '../../src/api/contract/auth';

interface Endpoints {
  list: (who: string) => Promise<{ list: string[]; total: number }>;
}
let made = 0;
const area = defineArea({
  key: 'test',
  live: (): Endpoints => ({ list: () => Promise.reject(new Error('live endpoint used')) }),
  create: (e: Endpoints) => {
    made += 1;
    return lazyActors({ rows: () => listActor('rows', () => e.list('x'), {}) });
  },
});

const user = (accountId: number) => ({ accountId, user_type: 1 }) as unknown as UserInfo;

/** An auth actor that signs in `first` at once (getUserInfo answers it). */
function appWith(first: UserInfo): AppActors {
  const auth = createActor(
    authMachine.provide({
      actors: {
        getUserInfo: fromPromise(async () => first),
      },
    }),
    { input: { tokenKind: 'local' } },
  ).start();
  return { auth } as unknown as AppActors;
}

afterEach(() => {
  made = 0;
});

test('made on first use, with the endpoints given; the same actors on every use', async () => {
  const actors = appWith(user(7));
  const calls: string[] = [];
  areasOf(actors).provide(area, {
    list: async (who) => (calls.push(who), { list: ['a'], total: 1 }),
  });
  expect(made).toBe(0);
  const first = areasOf(actors).get(area);
  expect(made).toBe(1);
  // Nothing is fetched until a view uses the list.
  expect(calls).toEqual([]);
  const rows = first.rows;
  await Promise.resolve();
  expect(calls).toEqual(['x']);
  expect(areasOf(actors).get(area).rows).toBe(rows);
  expect(made).toBe(1);
});

test('another user (or none) stops the area; the next use makes it afresh', async () => {
  const actors = appWith(user(7));
  await new Promise((r) => setTimeout(r, 0));
  expect(actors.auth.getSnapshot().context.user?.accountId).toBe(7);
  areasOf(actors).provide(area, { list: async () => ({ list: [], total: 0 }) });
  const before = areasOf(actors).get(area).rows;
  const version = areasOf(actors).version();
  actors.auth.send({ type: 'EXTERNAL_LOGOUT' });
  await new Promise((r) => setTimeout(r, 0));
  expect(actors.auth.getSnapshot().context.user).toBeNull();
  expect(before.getSnapshot().status).toBe('stopped');
  expect(areasOf(actors).version()).toBe(version + 1);
  expect(areasOf(actors).get(area).rows).not.toBe(before);
  expect(made).toBe(2);
});
