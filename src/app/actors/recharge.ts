/**
 * The recharge area (docs/domain.md §6): buying a package (its order polling lives here, app-level, so
 * it survives tab switches, the dialog's view going away and the dialog being closed; a notice
 * says how a watched order ended), the admin's packages (list, form,
 * delete, on / off sale, moves), the orders list and a merchant's own orders. After a change the
 * area reloads its lists itself; views only select and send.
 */
import { createActor, fromCallback, fromPromise } from 'xstate';
import type {
  OrderCreateReply,
  PackageStatusBody,
  PayStatus,
  RechargeOrder,
  RechargePackage,
} from '../../api/contract/recharge';
import * as api from '../../api/recharge';
import { dayRange } from '../../components/dates';
import { packageSortMachine } from '../../machines/package-sort';
import { buyMachine, timeToPay, type BuyEvent } from '../../machines/recharge/buy';
import { defineArea, lazyActors } from './areas';
import { dialogActor, listActor, submitActor, toast, whenChanged } from './factories';
import { packageFields, type PackagePayload, type PackageValues } from './package-form';

export interface RechargeEndpoints {
  getPackages: typeof api.getPackages;
  addPackage: typeof api.addPackage;
  editPackage: typeof api.editPackage;
  deletePackage: typeof api.deletePackage;
  setPackageStatus: typeof api.setPackageStatus;
  sortPackages: typeof api.sortPackages;
  createOrder: typeof api.createOrder;
  getOrder: typeof api.getOrder;
  getOrders: typeof api.getOrders;
  /** The provider's pay page for an order's `pay_url` (a plain function, no call). */
  payPageUrl: typeof api.payPageUrl;
}

/** setTimeout's longest delay (about 24.8 days); an order's time to pay is far shorter. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** The partner's or merchant's on-sale packages fit in one page. */
const PACKAGES_LIMIT = 100;
/** Packages are few: one page of 50 normally shows them all (moves work across pages too). */
export const PACKAGE_PAGE_SIZE = 50;
/** The sort call takes at most 1000 ids; the API lists at most 100 a page. */
const MAX_PAGES = 10;

export interface PackageFilters {
  name: string;
  /** '' all, '1' on sale, '0' off sale. */
  status: string;
}
export const NO_PACKAGE_FILTERS: PackageFilters = { name: '', status: '' };

/** The orders page's filters, as typed. */
export interface OrderFilters {
  orderNo: string;
  keyword: string;
  /** '' all, else a PayStatus. */
  status: string;
  /** YYYY-MM-DD of the viewer's calendar, '' open. */
  from: string;
  to: string;
}
export const NO_ORDER_FILTERS: OrderFilters = {
  orderNo: '',
  keyword: '',
  status: '',
  from: '',
  to: '',
};

/** The API's query of the filters (the viewer's days as an inclusive epoch-ms range). */
export function orderQuery(f: OrderFilters): Omit<api.OrderListParams, 'page' | 'limit'> {
  return {
    ...(f.orderNo.trim() ? { order_no: f.orderNo.trim() } : {}),
    ...(f.keyword.trim() ? { keyword: f.keyword.trim() } : {}),
    ...(f.status ? { pay_status: f.status as PayStatus } : {}),
    ...dayRange(f.from, f.to),
  };
}

function createRechargeActors(e: RechargeEndpoints) {
  /** The ids of every package in the list's order (the server's: sort, then id). */
  async function packageOrder(signal: AbortSignal): Promise<number[]> {
    const ids: number[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const { list, total } = await e.getPackages({ page, limit: 100 }, { signal });
      ids.push(...list.map((p) => p.id));
      if (list.length === 0 || ids.length >= total) break;
    }
    return ids;
  }

  const actors = lazyActors(
    {
      buy: () =>
        createActor(
          buyMachine.provide({
            actors: {
              loadPackages: fromPromise(({ signal }) =>
                e.getPackages({ limit: PACKAGES_LIMIT }, { signal }).then((reply) => reply.list),
              ),
              createOrder: fromPromise(({ input, signal }) =>
                e.createOrder({ package_id: input, pay_way: 'sandbox' }, { signal }),
              ),
              // Polling: a failed check is counted by the machine and said in the dialog.
              checkOrder: fromPromise(({ input, signal }) =>
                e.getOrder(input, { signal, quiet: true }),
              ),
              expiry: fromCallback<BuyEvent, OrderCreateReply>(({ input, sendBack }) => {
                const timer = setTimeout(
                  () => sendBack({ type: 'EXPIRED' }),
                  Math.min(timeToPay(input), MAX_TIMER_MS),
                );
                return () => clearTimeout(timer);
              }),
            },
          }),
          { systemId: 'recharge.buy' },
        ),
      packages: () =>
        listActor<PackageFilters, RechargePackage>(
          'rechargePackages',
          ({ filters, page, limit }, signal) =>
            e.getPackages(
              {
                name: filters.name.trim(),
                status: filters.status === '' ? '' : filters.status === '1' ? 1 : 0,
                page,
                limit,
              },
              { signal },
            ),
          NO_PACKAGE_FILTERS,
          PACKAGE_PAGE_SIZE,
        ),
      packageForm: () =>
        dialogActor<RechargePackage, PackagePayload, unknown, PackageValues>(
          'packageForm',
          (_row, p) => (p.kind === 'add' ? e.addPackage(p.body) : e.editPackage(p.body)),
          packageFields,
        ),
      packageDelete: () =>
        dialogActor<RechargePackage, { id: number }>('packageDelete', (_row, p) =>
          e.deletePackage(p),
        ),
      packageStatus: () =>
        submitActor<PackageStatusBody, RechargePackage>((body) => e.setPackageStatus(body)),
      packageSort: () =>
        createActor(
          packageSortMachine.provide({
            actors: {
              readOrder: fromPromise(({ signal }) => packageOrder(signal)),
              saveOrder: fromPromise(({ input }) => e.sortPackages({ ids: input.ids })),
            },
          }),
        ),
      orders: () =>
        listActor<OrderFilters, RechargeOrder>(
          'rechargeOrders',
          ({ filters, page, limit }, signal) =>
            e.getOrders({ ...orderQuery(filters), page, limit }, { signal }),
          NO_ORDER_FILTERS,
        ),
      myOrders: () =>
        listActor<Record<string, never>, RechargeOrder>(
          'myRechargeOrders',
          ({ page, limit }, signal) => e.getOrders({ page, limit }, { signal }),
          {},
        ),
    },
    (_actors, started) => {
      const reloadPackages = () => started('packages')?.send({ type: 'RELOAD' });
      return {
        buy: (buy) => [
          buy.on('paid', () => started('myOrders')?.send({ type: 'RELOAD' })),
          // The dialog was closed while the order was watched: the person is told how it ended.
          buy.on('notice', ({ outcome, order }) =>
            outcome === 'paid'
              ? toast('success', 'buy.paidNotice', { orderNo: order.order_no })
              : toast('info', 'buy.closedNotice', { orderNo: order.order_no }),
          ),
        ],
        packageForm: (form) => [
          whenChanged(
            form,
            (s) => s.context.completed,
            () => {
              toast('success', 'packages.saved');
              reloadPackages();
            },
          ),
        ],
        packageDelete: (remove) => [
          whenChanged(
            remove,
            (s) => s.context.completed,
            () => {
              toast('success', 'packages.deleted');
              reloadPackages();
            },
          ),
        ],
        packageStatus: (status) => [
          status.subscribe((s) => {
            if (!s.matches('done')) return;
            const row = s.context.result as RechargePackage | null;
            const text = row?.status === 1 ? 'packages.putOnSaleDone' : 'packages.takenOffSale';
            toast('success', text, { name: row?.name ?? '' });
            status.send({ type: 'RESET' });
            reloadPackages();
          }),
        ],
        packageSort: (sort) => [
          whenChanged(
            sort,
            (s) => s.context.settled,
            () => {
              const { moved } = sort.getSnapshot().context;
              const rows = started('packages')?.getSnapshot().context.rows ?? [];
              const row = moved && rows.find((r) => r.id === moved.id);
              if (moved && row) {
                const text = moved.direction === 'up' ? 'packages.movedUp' : 'packages.movedDown';
                toast('success', text, { name: row.name });
              }
              reloadPackages();
            },
          ),
        ],
      };
    },
  );
  return Object.assign(actors, { payPageUrl: e.payPageUrl });
}

export type RechargeActors = ReturnType<typeof createRechargeActors>;

export const rechargeArea = defineArea<RechargeEndpoints, RechargeActors>({
  key: 'recharge',
  live: () => api,
  create: (endpoints) => createRechargeActors(endpoints),
});
