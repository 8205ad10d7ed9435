/**
 * Fixtures of the recharge area's UI path tests (recharge-buy-view, recharge-package-sort-view):
 * packages, an order and its detail as a check sees it, the server's refusals, and the area's
 * endpoints as fakes (`fakeEndpoints()` of ui-paths.ts) settled by the test.
 */
import type {
  OrderCreateReply,
  RechargeOrder,
  RechargePackage,
} from '../../src/api/contract/recharge';
import { payPageUrl } from '../../src/api/recharge';
import type { RechargeEndpoints } from '../../src/app/actors/recharge';
import { replyError } from './fixtures';
import type { FakeEndpoints } from './ui-paths';

export const PACKAGES: readonly RechargePackage[] = [
  {
    id: 2,
    name: 'Standard',
    price: '100.00',
    money: '100.00',
    gift_money: '10.00',
    sort: 1,
    status: 1,
    description: '100 and 10 more',
    created_at: Date.UTC(2026, 10, 1),
    updated_at: Date.UTC(2026, 10, 1),
  },
  {
    id: 1,
    name: 'Trial',
    price: '10.00',
    money: '10.00',
    gift_money: '0.00',
    sort: 2,
    status: 1,
    description: '',
    created_at: Date.UTC(2026, 10, 1),
    updated_at: Date.UTC(2026, 10, 1),
  },
];

const CREATED = Date.UTC(2026, 10, 22, 4, 0);

export const ORDER: OrderCreateReply = {
  order_no: 'RC26112200000042',
  package_name: 'Standard',
  amount: '100.00',
  money: '100.00',
  gift_money: '10.00',
  pay_way: 'sandbox',
  pay_status: 'pending',
  pay_url: '/api/v1/pay/sandbox/checkout?order_no=RC26112200000042&sign=abc',
  expires_at: CREATED + 30 * 60_000,
  created_at: CREATED,
};

function detail(status: RechargeOrder['pay_status']): RechargeOrder {
  return {
    id: 42,
    order_no: ORDER.order_no,
    user_id: 5,
    username: 'merchant',
    name: 'Morning shop',
    service_id: 2,
    package_id: 2,
    package_name: ORDER.package_name,
    amount: ORDER.amount,
    money: ORDER.money,
    gift_money: ORDER.gift_money,
    pay_way: 'sandbox',
    pay_status: status,
    transaction_id: status === 'paid' ? 'SBX-RC26112200000042' : null,
    paid_at: status === 'paid' ? CREATED + 60_000 : null,
    closed_at: status === 'closed' ? ORDER.expires_at : null,
    expires_at: ORDER.expires_at,
    created_at: CREATED,
  };
}

export const PENDING = detail('pending');
export const PAID = detail('paid');
export const CLOSED = detail('closed');

export const REFUSED = 'You have 10 unpaid orders: pay or wait for one to close';
export const refusal = () => replyError(REFUSED);
/** No reply at all: the server may or may not have made the order. */
export const lostReply = () => replyError('http.networkError', 'transport');

/** The URL the sandbox's pay_url becomes in the browser (the test DOM's origin). */
export const PAY_PAGE = `${window.location.origin}${ORDER.pay_url}`;

/**
 * The recharge area's endpoints as fakes of `fake` (each call pending until the test settles it),
 * named after the endpoint; `given` replaces some (a reply at once, a count of calls).
 */
export function fakeRechargeEndpoints(
  fake: FakeEndpoints,
  given: Partial<RechargeEndpoints> = {},
): RechargeEndpoints {
  return {
    getPackages: fake.endpoint('getPackages'),
    addPackage: fake.endpoint('addPackage'),
    editPackage: fake.endpoint('editPackage'),
    deletePackage: fake.endpoint('deletePackage'),
    setPackageStatus: fake.endpoint('setPackageStatus'),
    sortPackages: fake.endpoint('sortPackages'),
    createOrder: fake.endpoint('createOrder'),
    getOrder: fake.endpoint('getOrder'),
    getOrders: fake.endpoint('getOrders'),
    payPageUrl,
    ...given,
  };
}
