/**
 * Recharge packages and orders (docs/domain.md §6) under `/recharge_package` and `/recharge_order`;
 * contract: ./contract/recharge.ts.
 */
import type {
  ListReply,
  OrderCreateBody,
  OrderCreateReply,
  PayStatus,
  PackageAddBody,
  PackageDeleteBody,
  PackageEditBody,
  PackageSortBody,
  PackageStatusBody,
  RechargeOrder,
  RechargePackage,
} from './contract/recharge';
import { apiUrl, currentLocale, get, post, type RequestOptions } from './http';

/** GET /recharge_package/list's query (contract: packageListQuery); '' or absent: no filter. */
export interface PackageListParams {
  name?: string;
  status?: 0 | 1 | '';
  page?: number;
  limit?: number;
}

/** GET /recharge_order/list's query (contract: orderListQuery); times in epoch ms. */
export interface OrderListParams {
  order_no?: string;
  user_id?: number;
  keyword?: string;
  pay_status?: PayStatus | '';
  start?: number;
  end?: number;
  page?: number;
  limit?: number;
}

/** Packages: admin sees all (with filters); partners and merchants the ones on sale. */
export function getPackages(
  query: PackageListParams,
  options?: RequestOptions,
): Promise<ListReply<RechargePackage>> {
  return get<ListReply<RechargePackage>>('/recharge_package/list', { ...query }, options);
}

export function addPackage(
  body: PackageAddBody,
  options?: RequestOptions,
): Promise<RechargePackage> {
  return post<RechargePackage>('/recharge_package/add', body, options);
}

export function editPackage(
  body: PackageEditBody,
  options?: RequestOptions,
): Promise<RechargePackage> {
  return post<RechargePackage>('/recharge_package/edit', body, options);
}

/** The ids in their new order; the first gets sort 1. */
export function sortPackages(
  body: PackageSortBody,
  options?: RequestOptions,
): Promise<{ ids: number[] }> {
  return post<{ ids: number[] }>('/recharge_package/sort', body, options);
}

export function setPackageStatus(
  body: PackageStatusBody,
  options?: RequestOptions,
): Promise<RechargePackage> {
  return post<RechargePackage>('/recharge_package/set_status', body, options);
}

export function deletePackage(
  body: PackageDeleteBody,
  options?: RequestOptions,
): Promise<{ id: number }> {
  return post<{ id: number }>('/recharge_package/delete', body, options);
}

/** Creates an unpaid order for a package (partner, merchant); pay it at `pay_url`. */
export function createOrder(
  body: OrderCreateBody,
  options?: RequestOptions,
): Promise<OrderCreateReply> {
  return post<OrderCreateReply>('/recharge_order/create', body, options);
}

/** One order of the caller's scope: poll it while the buyer pays. */
export function getOrder(orderNo: string, options?: RequestOptions): Promise<RechargeOrder> {
  return get<RechargeOrder>('/recharge_order/detail', { order_no: orderNo }, options);
}

/** Orders: admin all, partner its subtree; newest first. */
export function getOrders(
  query: OrderListParams,
  options?: RequestOptions,
): Promise<ListReply<RechargeOrder>> {
  return get<ListReply<RechargeOrder>>('/recharge_order/list', { ...query }, options);
}

/**
 * The absolute address of an order's payment page. The sandbox answers a path relative to the
 * API's origin (`/api/v1/pay/sandbox/checkout?…`); a real provider an absolute URL (left as it
 * is: its parameters may be signed). The sandbox's page is told the console's language and time
 * zone (`lang`, `tz`), so that it reads and shows times like the console.
 */
export function payPageUrl(payUrl: string): string {
  if (/^https?:\/\//i.test(payUrl)) return payUrl;
  const api = new URL(apiUrl(''), window.location.href);
  const url = new URL(payUrl, api.origin);
  const lang = currentLocale();
  if (lang) url.searchParams.set('lang', lang);
  url.searchParams.set('tz', Intl.DateTimeFormat().resolvedOptions().timeZone);
  return url.toString();
}
