/**
 * The matrix accounts area (/matrix-distribution/authorization): the list of the caller's
 * authorised accounts (filters: platform, status, group or "ungrouped", keyword; pages), the
 * groups with their counts, the page's machine (selection, binding, refresh now, the notice:
 * src/machines/matrix-accounts.ts) and the dialogs: delete (the selection or one), move to a group
 * (the selection or one), new group, rename group, delete group. After each change the area reloads
 * what shows it, as events between its actors.
 */
import { createActor, fromPromise } from 'xstate';
import {
  accountMoveBody,
  type AccountDeleteBody,
  type AccountMoveBody,
  type AccountStatus,
  type MatrixAccount,
  type SocialPlatformId,
  type AccountListParams,
} from '../../api/contract/matrix';
import {
  groupAddBody,
  groupEditBody,
  type GroupAddBody,
  type GroupDeleteBody,
  type GroupEditBody,
  type GroupListReply,
  type ResourceGroup,
} from '../../api/contract/resources';
import * as matrixApi from '../../api/matrix';
import { matrixAccountsMachine } from '../../machines/matrix-accounts';
import { defineArea, lazyActors } from './areas';
import {
  dialogActor,
  type DialogActor,
  listActor,
  loadActor,
  toast,
  whenChanged,
} from './factories';
import { groupFields, textFields, type GroupValues, type TextValues } from './small-forms';

export interface MatrixEndpoints {
  getAuthUrl: typeof matrixApi.getAuthUrl;
  getAccounts: typeof matrixApi.getAccounts;
  refreshAccount: typeof matrixApi.refreshAccount;
  deleteAccounts: typeof matrixApi.deleteAccounts;
  moveAccounts: typeof matrixApi.moveAccounts;
  getGroups: typeof matrixApi.getAccountGroups;
  addGroup: typeof matrixApi.addAccountGroup;
  editGroup: typeof matrixApi.editAccountGroup;
  deleteGroup: typeof matrixApi.deleteAccountGroup;
  /** Sends the browser to another site (the platform's authorisation page). */
  navigate: (url: string) => void;
}

/** Every group, the ungrouped accounts, or one group's. */
export type AccountGroupFilter = 'all' | 'ungrouped' | number;

export interface AccountFilters {
  platform: SocialPlatformId | '';
  status: AccountStatus | '';
  group: AccountGroupFilter;
  keyword: string;
}

export const NO_ACCOUNT_FILTERS: AccountFilters = {
  platform: '',
  status: '',
  group: 'all',
  keyword: '',
};

export const ACCOUNT_PAGE_SIZE = 20;

/** The list call's filters of the page's. */
export function accountQuery(f: AccountFilters): Partial<AccountListParams> {
  const query: Partial<AccountListParams> = {};
  if (f.platform) query.platform = f.platform;
  if (f.status) query.status = f.status;
  if (f.group === 'ungrouped') query.group_id = 0;
  else if (typeof f.group === 'number') query.group_id = f.group;
  if (f.keyword.trim()) query.keyword = f.keyword.trim();
  return query;
}

/** The accounts a delete or a move is about; `name` when it is one (the dialog names it). */
export interface AccountSelection {
  ids: readonly number[];
  name: string | null;
  /** The one account's group (the move dialog starts there); null: ungrouped or several. */
  groupId: number | null;
}

function createMatrixActors(e: MatrixEndpoints) {
  return lazyActors(
    {
      accounts: () =>
        listActor<AccountFilters, MatrixAccount>(
          'matrixAccountList',
          ({ filters, page, limit }, signal) =>
            e.getAccounts({ ...accountQuery(filters), page, limit }, { signal }),
          NO_ACCOUNT_FILTERS,
          ACCOUNT_PAGE_SIZE,
        ),
      groups: () =>
        loadActor<GroupListReply>('matrixAccountGroups', (signal) => e.getGroups({ signal })),
      page: () =>
        createActor(
          matrixAccountsMachine.provide({
            actors: {
              authUrl: fromPromise(({ input }) => e.getAuthUrl(input)),
              // The page shows the refusal itself (its notice): no second one from the HTTP layer.
              refresh: fromPromise(({ input }) => e.refreshAccount(input, { quiet: true })),
            },
            actions: { navigate: (_, params) => e.navigate(params.url) },
          }),
        ),
      remove: () =>
        dialogActor<AccountSelection, AccountDeleteBody, { deleted: number }>(
          'matrixAccountDelete',
          (_s, body) => e.deleteAccounts(body),
        ),
      // The dialogs' drafts are their machines' (docs/architecture.md "Forms").
      move: () =>
        dialogActor<AccountSelection, AccountMoveBody, { moved: number }, GroupValues>(
          'matrixAccountMove',
          (_s, body) => e.moveAccounts(body),
          groupFields(
            (s) => s?.groupId ?? null,
            (s, group_id) => ({ ids: [...(s?.ids ?? [])], group_id }),
            accountMoveBody,
          ),
        ),
      groupAdd: () =>
        dialogActor<null, GroupAddBody, ResourceGroup, TextValues>(
          'matrixGroupAdd',
          (_t, body) => e.addGroup(body),
          textFields(
            () => '',
            (_t, name) => ({ name }),
            groupAddBody,
          ),
        ),
      groupRename: () =>
        dialogActor<ResourceGroup, GroupEditBody, ResourceGroup, TextValues>(
          'matrixGroupRename',
          (_g, body) => e.editGroup(body),
          textFields(
            (g) => g?.name ?? '',
            (g, name) => ({ id: g?.id ?? 0, name }),
            groupEditBody,
          ),
        ),
      groupDelete: () =>
        dialogActor<ResourceGroup, GroupDeleteBody, null>('matrixGroupDelete', (_g, body) =>
          e.deleteGroup(body),
        ),
    },
    (_actors, started) => {
      const reloadList = () => started('accounts')?.send({ type: 'RELOAD' });
      const reloadGroups = () => started('groups')?.send({ type: 'RELOAD' });
      const reloadBoth = () => {
        reloadList();
        reloadGroups();
      };
      const after = (
        actor: { getSnapshot(): { context: { completed: number } } },
        then: () => void,
      ) => [whenChanged(actor as DialogActor<unknown, unknown>, (s) => s.context.completed, then)];
      return {
        accounts: (accounts) => [
          // What the list shows now: the selection keeps only what the person still sees.
          whenChanged(
            accounts,
            (s) => (s.matches('ready') ? `ids:${s.context.rows.map((r) => r.id).join(',')}` : ''),
            () =>
              started('page')?.send({
                type: 'SHOWN',
                ids: accounts.getSnapshot().context.rows.map((r) => r.id),
              }),
          ),
        ],
        // A refresh (done or refused) may change the account's status and last error.
        page: (page) => [
          whenChanged(page, (s) => (s.hasTag('refreshing') ? 0 : 'idle'), reloadList),
        ],
        remove: (remove) =>
          after(remove, () => {
            toast('success', 'matrix.deleted', {
              count: remove.getSnapshot().context.result?.deleted ?? 0,
            });
            started('page')?.send({ type: 'CLEAR' });
            reloadBoth();
          }),
        move: (move) =>
          after(move, () => {
            toast('success', 'matrix.moved', {
              count: move.getSnapshot().context.result?.moved ?? 0,
            });
            started('page')?.send({ type: 'CLEAR' });
            reloadBoth();
          }),
        groupAdd: (groupAdd) =>
          after(groupAdd, () => {
            toast('success', 'matrix.groupAdded');
            reloadGroups();
          }),
        groupRename: (groupRename) =>
          after(groupRename, () => {
            toast('success', 'matrix.groupRenamed');
            reloadGroups();
          }),
        groupDelete: (groupDelete) =>
          after(groupDelete, () => {
            toast('success', 'matrix.groupDeleted');
            const gone = groupDelete.getSnapshot().context.target?.id;
            const list = started('accounts');
            const filters = list?.getSnapshot().context.query.filters;
            // Its accounts moved to "ungrouped": a list showing the group follows them there.
            if (list && filters && filters.group === gone) {
              list.send({ type: 'SET_FILTERS', filters: { ...filters, group: 'ungrouped' } });
            } else reloadList();
            reloadGroups();
          }),
      };
    },
  );
}

export type MatrixActors = ReturnType<typeof createMatrixActors>;

export const matrixArea = defineArea<MatrixEndpoints, MatrixActors>({
  key: 'matrix',
  live: () => ({
    getAuthUrl: matrixApi.getAuthUrl,
    getAccounts: matrixApi.getAccounts,
    refreshAccount: matrixApi.refreshAccount,
    deleteAccounts: matrixApi.deleteAccounts,
    moveAccounts: matrixApi.moveAccounts,
    getGroups: matrixApi.getAccountGroups,
    addGroup: matrixApi.addAccountGroup,
    editGroup: matrixApi.editAccountGroup,
    deleteGroup: matrixApi.deleteAccountGroup,
    navigate: (url) => window.location.assign(url),
  }),
  create: (endpoints) => createMatrixActors(endpoints),
});
