/**
 * The package form's draft (held by its dialog machine, docs/architecture.md "Forms") and what it
 * sends. It checks with the contract's own schemas (`packageAddBody`, `packageEditBody`), so it
 * refuses exactly what the server would; an edit sends only the fields that changed (the server
 * keeps the others).
 */
import { parseAmount } from '../../api/contract/money';
import {
  packageAddBody,
  packageEditBody,
  type PackageAddBody,
  type PackageEditBody,
  type RechargePackage,
} from '../../api/contract/recharge';
import type { Checked } from '../../machines/draft-dialog';
import type { CustomerDialogForm } from '../../machines/customers/customer-dialog';
import { fieldErrors } from '../hooks/zod-errors';

export interface PackageValues {
  name: string;
  price: string;
  money: string;
  gift: string;
  sort: string;
  /** '1' on sale, '0' off sale. */
  status: string;
  description: string;
}

/** The package form's call: a new package or an edit. */
export type PackagePayload =
  { kind: 'add'; body: PackageAddBody } | { kind: 'edit'; body: PackageEditBody };

export function initialPackageValues(row: RechargePackage | null): PackageValues {
  if (!row) {
    return { name: '', price: '', money: '', gift: '', sort: '', status: '1', description: '' };
  }
  return {
    name: row.name,
    price: row.price,
    money: row.money,
    gift: row.gift_money,
    sort: String(row.sort),
    status: String(row.status),
    description: row.description,
  };
}

/** Whole numbers go as numbers; anything else as typed, so the schema names the field. */
const sortOf = (text: string): number | string =>
  /^-?\d{1,16}$/.test(text.trim()) ? Number(text.trim()) : text;

/** An amount in cents ("10" is "10.00", "0" is "0.00"); what the contract refuses, as typed. */
function cents(text: string): string {
  const trimmed = text.trim();
  if (/^0+(\.0*)?$/.test(trimmed)) return '0';
  const units = parseAmount('money', trimmed);
  return typeof units === 'number' ? String(units) : trimmed;
}

/** What the form sends: a new package whole, an edit only the fields that changed. */
export function packagePayload(values: PackageValues, row: RechargePackage | null): PackagePayload {
  const v = values;
  if (!row) {
    return {
      kind: 'add',
      body: {
        name: v.name,
        price: v.price.trim(),
        money: v.money.trim(),
        ...(v.gift.trim() ? { gift_money: v.gift.trim() } : {}),
        ...(v.sort.trim() ? { sort: sortOf(v.sort) as number } : {}),
        status: v.status === '0' ? 0 : 1,
        ...(v.description.trim() ? { description: v.description } : {}),
      },
    };
  }
  const body: PackageEditBody = { id: row.id };
  const money = (typed: string, was: string) => cents(typed) !== cents(was);
  if (v.name.trim() !== row.name) body.name = v.name;
  if (money(v.price, row.price)) body.price = v.price.trim();
  if (money(v.money, row.money)) body.money = v.money.trim();
  if (money(v.gift, row.gift_money)) body.gift_money = v.gift.trim();
  if (v.sort.trim() !== String(row.sort)) body.sort = sortOf(v.sort) as number;
  if (v.status !== String(row.status)) body.status = v.status === '0' ? 0 : 1;
  if (v.description.trim() !== row.description) body.description = v.description;
  return { kind: 'edit', body };
}

/** The form's field of each body key. */
const FIELD_OF: Record<string, keyof PackageValues | '_form'> = { gift_money: 'gift' };

/**
 * The payload's problems by form field (message ids; '_form' for the form as a whole, e.g.
 * "nothing to change"); empty when the server's schema accepts it.
 */
export function packageErrors(payload: PackagePayload): Record<string, string> {
  const parsed =
    payload.kind === 'add'
      ? packageAddBody.safeParse(payload.body)
      : packageEditBody.safeParse(payload.body);
  if (parsed.success) return {};
  return Object.fromEntries(
    Object.entries(fieldErrors(parsed.error)).map(([key, id]) => [FIELD_OF[key] ?? key, id]),
  );
}

/** The package dialog's fields: a row's values (or a new package's defaults), checked on save. */
export const packageFields: CustomerDialogForm<RechargePackage, PackagePayload, PackageValues> = {
  start: initialPackageValues,
  check: (values, row): Checked<PackagePayload> => {
    const payload = packagePayload(values, row);
    const errors = packageErrors(payload);
    return Object.keys(errors).length === 0 ? { draft: payload } : { errors };
  },
};
