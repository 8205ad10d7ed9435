/**
 * The dashboard area (docs/domain.md §22): the admin's platform totals (/home/index) and the work bench's
 * own balances and counts (/dashboard/workBench). Kept across navigation, so each reloads itself
 * when something it shows changed in another area: a customer saved (counts), a transfer or an
 * exchange that may have moved something, an order seen paid, a card redeemed or cards made,
 * paid work submitted or finished (balances: the balance news area). The charts' series
 * (dashboard-series machine) follow the same changes.
 */
import { createActor, fromPromise, type AnyActorRef, type Subscription } from 'xstate';
import type { Account, DashboardData } from '../../api/contract/dashboard';
import * as dashboardApi from '../../api/dashboard';
import { dashboardSeriesMachine } from '../../machines/dashboard-series';
import { defineArea, lazyActors, type AreaRegistry } from './areas';
import { balanceNewsArea } from './balance-news';
import { cardsArea } from './cards';
import { customersArea } from './customers';
import { loadActor, whenChanged } from './factories';
import { moneyArea, movedSomething } from './money';
import { rechargeArea } from './recharge';

export interface DashboardEndpoints {
  getDashboardData: typeof dashboardApi.getDashboardData;
  getAccount: typeof dashboardApi.getAccount;
  getDashboardSeries: typeof dashboardApi.getDashboardSeries;
}

export interface WorkBench {
  account: Account;
  totals: DashboardData;
}

/** Calls `reload` after each change elsewhere of what the dashboard shows. */
function followChanges(areas: AreaRegistry, reload: () => void): Subscription[] {
  const customers = areas.get(customersArea);
  const money = areas.get(moneyArea);
  const cards = areas.get(cardsArea);
  const recharge = areas.get(rechargeArea);
  return [
    whenChanged(customers.changes, (s) => s.context, reload),
    whenChanged(money.transfer, movedSomething, reload),
    whenChanged(money.exchange, movedSomething, reload),
    whenChanged(cards.changes, (s) => s.context, reload),
    whenChanged(cards.redeem, (s) => s.context.redeemed, reload),
    recharge.buy.on('paid', reload),
    areas.get(balanceNewsArea).onMoved(reload),
  ];
}

function createDashboardActors(e: DashboardEndpoints, areas: AreaRegistry) {
  const follow = (actor: AnyActorRef) => followChanges(areas, () => actor.send({ type: 'RELOAD' }));
  return lazyActors(
    {
      totals: () =>
        loadActor<DashboardData>('homeTotals', (signal) => e.getDashboardData({ signal })),
      workBench: () =>
        loadActor<WorkBench>('workBench', async (signal) => {
          const [account, totals] = await Promise.all([
            e.getAccount({ signal }),
            e.getDashboardData({ signal }),
          ]);
          return { account, totals };
        }),
      // The charts of both pages: one range for the session (a page opened again shows it).
      series: () =>
        createActor(
          dashboardSeriesMachine.provide({
            actors: {
              load: fromPromise(({ input, signal }) =>
                e.getDashboardSeries(input.days, { signal }),
              ),
            },
          }),
        ),
    },
    () => ({ totals: follow, workBench: follow, series: follow }),
  );
}

export type DashboardActors = ReturnType<typeof createDashboardActors>;

export const dashboardArea = defineArea<DashboardEndpoints, DashboardActors>({
  key: 'dashboard',
  live: () => dashboardApi,
  create: (endpoints, areas) => createDashboardActors(endpoints, areas),
});
