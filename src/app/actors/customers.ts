/**
 * The customers area (docs/domain.md §1, /promotion/merchant, partner, agent, all-merchant and tree):
 * each page's list and its dialogs (create / edit, password, enable / disable, transfer
 * permissions, delete), the partner and agent pickers, the partner prefixes in use and the tree's
 * levels. A dialog that saved counts a change in `changes`; the area follows it by reloading
 * every list, picker and tree level that was shown (a new merchant changes the partner's and the
 * agent's counts too). A transfer from a customers page reloads that page's list.
 */
import { createActor, fromTransition, type AnyActorRef } from 'xstate';
import type {
  AddByServiceBody,
  AddCustomerBody,
  CustomerRow,
  CustomerSort,
  EditByServiceBody,
  EditCustomerBody,
  PlatformUserPage,
} from '../../api/contract/customers';
import { editAccountBody } from '../../api/contract/customers';
import type { CustomerDialogForm } from '../../machines/customers/customer-dialog';
import { fieldErrors } from '../../machines/draft-dialog';
import * as customersApi from '../../api/customers';
import { getPlatformUsers } from '../../api/money';
import { dayRange } from '../../components/dates';
import { defineArea, lazyActors } from './areas';
import { customerFields, type FormPayload, type FormSettings, type Values } from './customer-form';
import { dialogActor, listActor, loadActor, toast, whenChanged, type LoadActor } from './factories';
import { moneyArea, movedSomething, type MoneyActors } from './money';

export interface CustomersEndpoints {
  getCustomers: typeof customersApi.getCustomers;
  addCustomer: typeof customersApi.addCustomer;
  editCustomer: typeof customersApi.editCustomer;
  addByService: typeof customersApi.addByService;
  editByService: typeof customersApi.editByService;
  editAccount: typeof customersApi.editAccount;
  editTransferConfig: typeof customersApi.editTransferConfig;
  deleteCustomer: typeof customersApi.deleteCustomer;
  getUsedPrefixes: typeof customersApi.getUsedPrefixes;
  getPlatformUsers: typeof getPlatformUsers;
}

/** The customer pages: one component (customer-page.tsx), one list and set of dialogs each. */
export type CustomerKind = 'merchant' | 'partner' | 'agent' | 'allMerchant';

export const USER_TYPE_OF: Record<CustomerKind, 1 | 2 | 3> = {
  merchant: 2,
  allMerchant: 2,
  partner: 1,
  agent: 3,
};

/** The filters a person edits (strings of the form), plus the sort of the table. */
export interface CustomerFilters {
  keyword: string;
  status: string;
  serviceId: string;
  agentId: string;
  from: string;
  to: string;
  sort: CustomerSort | '';
  order: 'asc' | 'desc' | '';
}

export const NO_CUSTOMER_FILTERS: CustomerFilters = {
  keyword: '',
  status: '',
  serviceId: '',
  agentId: '',
  from: '',
  to: '',
  sort: '',
  order: '',
};

/** The list query of the filters (the API's range is half-open: `to` is the next day's start). */
export function customerQuery(
  userType: 1 | 2 | 3,
  f: CustomerFilters,
): customersApi.CustomerListParams {
  const range = dayRange(f.from, f.to);
  return {
    user_type: userType,
    keyword: f.keyword.trim() || undefined,
    status: f.status === '' ? undefined : (Number(f.status) as 0 | 1),
    service_id: f.serviceId || undefined,
    agent_id: f.agentId || undefined,
    created_from: range.start,
    created_to: range.end === undefined ? undefined : range.end + 1,
    sort: f.sort || undefined,
    order: f.order || undefined,
  };
}

/** The three transfer flags of a user (the permissions dialog's payload). */
export interface Permissions {
  can_transfer_money: 0 | 1;
  can_transfer_digital_man: 0 | 1;
  can_transfer_digital_voice: 0 | 1;
}

/** The password dialog's draft: empty on each opening, checked like the server's edit. */
const passwordFields: CustomerDialogForm<CustomerRow, { password: string }, { password: string }> =
  {
    start: () => ({ password: '' }),
    check: (form, row) => {
      const errors = fieldErrors(editAccountBody, { id: row?.id ?? 0, password: form.password });
      return errors.password ? { errors: { password: errors.password } } : { draft: form };
    },
  };

const flag = (on: boolean | number | undefined): 0 | 1 => (on ? 1 : 0);

/** The permissions dialog's draft: the row's three flags as they are (any choice is sendable). */
const permissionsFields: CustomerDialogForm<CustomerRow, Permissions, Permissions> = {
  start: (row) => ({
    can_transfer_money: flag(row?.can_transfer_money),
    can_transfer_digital_man: flag(row?.can_transfer_digital_man),
    can_transfer_digital_voice: flag(row?.can_transfer_digital_voice),
  }),
  check: (form) => ({ draft: form }),
};

/** Who the viewer of the tree is: its top level is every partner (admin) or its own users. */
export interface TreeViewer {
  id: number;
  isAdmin: boolean;
}

/** At most 50 users per picker (the call's page limit); enough for a partner's agents. */
const PICKER_LIMIT = 50;
/** The tree holds at most this many children per level (the list call's page limit). */
const LEVEL_LIMIT = 100;

/** Counts the saved changes of customers (what follows reloads; the dashboard follows too). */
const counter = fromTransition((count: number, _event: { type: 'CHANGED' }) => count + 1, 0);

function save(e: CustomersEndpoints, { endpoint, body }: FormPayload): Promise<CustomerRow> {
  switch (endpoint) {
    case 'add':
      return e.addCustomer(body as AddCustomerBody);
    case 'edit':
      return e.editCustomer(body as EditCustomerBody);
    case 'addByService':
      return e.addByService(body as AddByServiceBody);
    case 'editByService':
      return e.editByService(body as EditByServiceBody);
  }
}

/**
 * The children of a node (docs/domain.md §1: partner → agent → merchant): a partner's agents, then
 * the merchants directly under it; an agent's merchants. `parent` null is the viewer's top level.
 */
async function childrenOf(
  e: CustomersEndpoints,
  parent: CustomerRow | null,
  me: TreeViewer,
  signal: AbortSignal,
): Promise<CustomerRow[]> {
  const page = { limit: LEVEL_LIMIT, sort: 'id' as const, order: 'asc' as const };
  if (!parent && me.isAdmin) {
    return (await e.getCustomers({ user_type: 1, ...page }, { signal })).list;
  }
  const pid = parent?.id ?? me.id;
  const types: (2 | 3)[] = parent?.user_type === 3 ? [2] : [3, 2];
  const pages = await Promise.all(
    types.map((t) => e.getCustomers({ user_type: t, pid, ...page }, { signal })),
  );
  return pages.flatMap((p) => p.list);
}

/** One page's list and dialogs; `changed` is called after any dialog saved. */
function createKindActors(
  e: CustomersEndpoints,
  kind: CustomerKind,
  changed: () => void,
  transfer: () => MoneyActors['transfer'],
) {
  const userType = USER_TYPE_OF[kind];
  let reloadList = () => {};
  const actors = lazyActors(
    {
      list: () =>
        listActor<CustomerFilters, CustomerRow>(
          `customers-${kind}`,
          ({ filters, page, limit }, signal) =>
            e.getCustomers({ ...customerQuery(userType, filters), page, limit }, { signal }),
          NO_CUSTOMER_FILTERS,
        ),
      form: () =>
        dialogActor<CustomerRow, FormPayload, unknown, Values, FormSettings>(
          'customerForm',
          (_row, payload) => save(e, payload),
          customerFields,
        ),
      password: () =>
        dialogActor<CustomerRow, { password: string }, unknown, { password: string }>(
          'customerPassword',
          (row, p) => e.editAccount({ id: row?.id ?? 0, password: p.password }),
          passwordFields,
        ),
      status: () =>
        dialogActor<CustomerRow, { status: 0 | 1 }>('customerStatus', (row, p) =>
          e.editAccount({ id: row?.id ?? 0, status: p.status }),
        ),
      permissions: () =>
        dialogActor<CustomerRow, Permissions, unknown, Permissions>(
          'customerPermissions',
          (row, p) => e.editTransferConfig({ user_id: row?.id ?? 0, ...p }),
          permissionsFields,
        ),
      remove: () =>
        dialogActor<CustomerRow, { id: number }>('customerDelete', (_row, p) =>
          e.deleteCustomer(p),
        ),
    },
    (_actors, started) => {
      reloadList = () => started('list')?.send({ type: 'RELOAD' });
      /** A notice, then everything that shows customers afresh. */
      const saved = (text: string) => (dialog: AnyActorRef) => [
        whenChanged(
          dialog,
          (s) => s.context.completed,
          () => {
            toast('success', text);
            changed();
          },
        ),
      ];
      return {
        // A transfer from this page (money area) changes its balances columns.
        list: () => [whenChanged(transfer(), movedSomething, () => reloadList())],
        form: saved('customers.saved'),
        password: saved('customers.passwordReset'),
        status: saved('customers.statusChanged'),
        permissions: saved('customers.saved'),
        remove: saved('customers.deleted'),
      };
    },
  );
  return Object.assign(actors, { reloadList: () => reloadList() });
}

export type CustomerKindActors = ReturnType<typeof createKindActors>;

function createCustomersActors(e: CustomersEndpoints, money: () => Pick<MoneyActors, 'transfer'>) {
  const kinds = new Map<CustomerKind, CustomerKindActors>();
  const levels = new Map<number, LoadActor<CustomerRow[]>>();
  let reloadShared = () => {};
  const shared = lazyActors(
    {
      changes: () => createActor(counter),
      /** The partners (admin) and agents the pickers and filters offer. */
      partnerChoices: () =>
        loadActor<PlatformUserPage>('customerPicker1', (signal) =>
          e.getPlatformUsers({ user_type: 1, limit: PICKER_LIMIT }, { signal }),
        ),
      agentChoices: () =>
        loadActor<PlatformUserPage>('customerPicker3', (signal) =>
          e.getPlatformUsers({ user_type: 3, limit: PICKER_LIMIT }, { signal }),
        ),
      /** Every partner prefix in use: the form warns of a taken one. */
      usedPrefixes: () =>
        loadActor<string[]>('usedPrefixes', (signal) => e.getUsedPrefixes({ signal })),
    },
    (_actors, started) => {
      reloadShared = () =>
        (['partnerChoices', 'agentChoices', 'usedPrefixes'] as const).forEach((key) =>
          started(key)?.send({ type: 'RELOAD' }),
        );
      return {
        changes: (changes) => [
          whenChanged(
            changes,
            (s) => s.context,
            () => {
              kinds.forEach((k) => k.reloadList());
              levels.forEach((level) => level.send({ type: 'RELOAD' }));
              reloadShared();
            },
          ),
        ],
      };
    },
  );
  const changed = () => shared.changes.send({ type: 'CHANGED' });
  const stopShared = shared.stop;
  return Object.assign(shared, {
    /** A customer page's list and dialogs (made on first use, kept with the area). */
    kind(kind: CustomerKind): CustomerKindActors {
      let made = kinds.get(kind);
      if (!made) {
        made = createKindActors(e, kind, changed, () => money().transfer);
        kinds.set(kind, made);
      }
      return made;
    },
    /** A level of the tree: the top (`parent` null) or a node's children, loaded once shown. */
    treeLevel(parent: CustomerRow | null, me: TreeViewer): LoadActor<CustomerRow[]> {
      const key = parent?.id ?? 0;
      let level = levels.get(key);
      if (!level) {
        level = loadActor<CustomerRow[]>(`customerTree-${key}`, (signal) =>
          childrenOf(e, parent, me, signal),
        ).start();
        levels.set(key, level);
      }
      return level;
    },
    stop() {
      stopShared();
      kinds.forEach((k) => k.stop());
      kinds.clear();
      levels.forEach((level) => level.stop());
      levels.clear();
    },
  });
}

export type CustomersActors = ReturnType<typeof createCustomersActors>;

export const customersArea = defineArea<CustomersEndpoints, CustomersActors>({
  key: 'customers',
  live: () => ({ ...customersApi, getPlatformUsers }),
  create: (endpoints, areas) => createCustomersActors(endpoints, () => areas.get(moneyArea)),
});
