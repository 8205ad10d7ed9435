// @vitest-environment node
/**
 * The dashboard area reloads what it shows after a change in another area (an event between
 * actors, no view effect): here, a customer saved.
 */
import { expect, test } from 'vitest';
import { waitFor } from 'xstate';
import { createAreaRegistry } from '../../src/app/actors/areas';
import { customersArea, type CustomersEndpoints } from '../../src/app/actors/customers';
import { dashboardArea } from '../../src/app/actors/dashboard';
import { moneyArea } from '../../src/app/actors/money';
import { fakeMoneyEndpoints } from './money-paths';

const TOTALS = {
  partners: 1,
  agents: 0,
  merchants: 2,
  users_today: 0,
  money: '0',
  digital_man_seconds: 0,
  voice_clone_count: 0,
  image_clone_count: 0,
};

test('home totals load once, then again after a customer is saved', async () => {
  const areas = createAreaRegistry();
  let loads = 0;
  areas.provide(dashboardArea, {
    getDashboardData: async () => {
      loads += 1;
      return TOTALS;
    },
    getAccount: () => new Promise(() => {}),
    getDashboardSeries: () => new Promise(() => {}),
  });
  const never = () => new Promise<never>(() => {});
  areas.provide(customersArea, {
    ...Object.fromEntries(
      [
        'getCustomers',
        'addCustomer',
        'editCustomer',
        'addByService',
        'editByService',
        'editAccount',
        'editTransferConfig',
        'getUsedPrefixes',
        'getPlatformUsers',
      ].map((name) => [name, never]),
    ),
    deleteCustomer: async () => null,
  } as unknown as CustomersEndpoints);
  areas.provide(moneyArea, fakeMoneyEndpoints());

  const totals = areas.get(dashboardArea).totals;
  await waitFor(totals, (s) => s.matches('ready'));
  expect(loads).toBe(1);

  const remove = areas.get(customersArea).kind('merchant').remove;
  remove.send({ type: 'OPEN', target: null });
  remove.send({ type: 'SUBMIT', payload: { id: 7 } });
  await waitFor(remove, (s) => s.matches('done'));
  await waitFor(totals, (s) => s.matches('ready') && loads === 2);
  areas.reset();
});
