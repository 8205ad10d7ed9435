/**
 * /account/property before and after the branding is known: until then a skeleton
 * holds the place of the money's name and of the Exchange button, so nothing is first painted
 * with the default name ("余额") and nothing moves when the branding arrives.
 */
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { SystemInfo } from '../../src/api/contract/system';
import { provideArea } from '../../src/app/actors/areas';
import { moneyArea } from '../../src/app/actors/money';
import enUS from '../../src/i18n/en-US';
import { localeStore } from '../../src/i18n/locale-store';
import { brandingMachine } from '../../src/machines/branding';
import PropertyPage from '../../src/views/account/property-page';
import { fakeMoneyEndpoints } from './money-paths';
import { appActors, BRANDING, flush, renderAt } from './view-harness';

beforeEach(() => {
  vi.useFakeTimers();
  localeStore.set('en-US');
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

test('the balances wait for the branding: a skeleton, then its money name', async () => {
  let answer: (info: SystemInfo) => void = () => {};
  const branding = createActor(
    brandingMachine.provide({
      actors: {
        fetchSystemInfo: fromPromise(() => new Promise<SystemInfo>((r) => (answer = r))),
      },
    }),
  ).start();
  const actors = { ...appActors({}), branding };
  provideArea(
    actors,
    moneyArea,
    fakeMoneyEndpoints({
      getAccount: async () => ({
        money: '12.50',
        digital_man_seconds: 0,
        voice_clone_count: 0,
        image_clone_count: 0,
      }),
    }),
  );
  renderAt(actors, <PropertyPage />, '/account/property');
  await flush();
  // Pending: the place of the Exchange button is held, no money name is shown yet.
  screen.getByTestId('exchange-pending');
  // (The filters' closed choices are not painted.)
  const painted = (text: string) =>
    screen.queryAllByText(text).filter((el) => el.tagName !== 'OPTION');
  expect(painted(enUS['stats.defaultMoneyName'])).toEqual([]);

  await act(async () => answer({ ...BRANDING, money_name: 'Coins' }));
  await flush();
  expect(screen.queryByTestId('exchange-pending')).toBeNull();
  expect(painted('Coins')).toHaveLength(1);
  expect(screen.getByTestId('balance-money').textContent).toBe('12.50');
  actors.dispose();
});
