import { Button, Stack } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useMemo, useState } from 'react';
import { useIntl } from 'react-intl';
import { useAppActors } from '../../app/actors/actors-context';
import { useArea } from '../../app/actors/areas';
import {
  customersArea,
  NO_CUSTOMER_FILTERS,
  type CustomerFilters,
  type CustomerKind,
  type Permissions,
} from '../../app/actors/customers';
import { moneyArea } from '../../app/actors/money';
import { useListActor } from '../../app/hooks/use-list';
import { useMoneyName } from '../../app/hooks/use-money-name';
import { DataTable } from '../../components/data-table';
import { Page } from '../../components/page';
import type { MessageId } from '../../i18n/messages';
import { transferableAssets } from '../shared/amounts';
import { TransferDialog, userLabel } from '../shared/transfer-dialog';
import { customerColumns, type RowAction } from './customer-columns';
import { CustomerFilterBar } from './customer-filters';
import { CustomerFormDialog } from './customer-form-dialog';
import type { FormSettings } from '../../app/actors/customer-form';
import { KINDS } from './customer-kinds';
import {
  DeleteDialog,
  PermissionsDialog,
  ResetPasswordDialog,
  StatusDialog,
} from './customer-row-dialogs';
import { PartnerSelfNote } from './partner-self-note';

/** The overstep route of a merchant (docs/domain.md §13): its console in a tab of its own. */
export const loginAsUrl = (id: number) => `/?login_type=1&merchant_id=${id}`;

/**
 * /promotion/merchant, partner, agent and all-merchant: one page, configured per kind
 * (customer-kinds.ts). Filters and pages are the server's (list machine); every dialog is a
 * customer-dialog machine of the customers area, which reloads the list after any of them saved.
 */
export function CustomerPage(props: { kind: CustomerKind }) {
  const intl = useIntl();
  const t = (id: MessageId, values?: Record<string, string | number>) =>
    intl.formatMessage({ id }, values);
  const kind = KINDS[props.kind];
  const moneyName = useMoneyName();
  const { auth, branding } = useAppActors();
  const user = useSelector(auth, (s) => s.context.user);
  const info = useSelector(branding, (s) => s.context.info);
  const isAdmin = user?.user_type === 0;
  const held: Permissions | null = isAdmin
    ? null
    : {
        can_transfer_money: user?.can_transfer_money ? 1 : 0,
        can_transfer_digital_man: user?.can_transfer_digital_man ? 1 : 0,
        can_transfer_digital_voice: user?.can_transfer_digital_voice ? 1 : 0,
      };

  // The page's list and dialogs: the customers area saves, notifies and reloads after a change.
  const dialogs = useArea(customersArea).kind(props.kind);
  const list = useListActor(dialogs.list);
  const filters = list.query.filters;
  const { form, password, status, permissions, remove } = dialogs;

  const transfer = useArea(moneyArea).transfer;
  const assets = useMemo(() => transferableAssets(user), [user]);

  const [draft, setDraft] = useState<CustomerFilters>(filters);
  // What the customer form starts from and is checked with, given with each OPEN.
  const formSettings: FormSettings = useMemo(
    () => ({
      isAdmin,
      userType: kind.userType,
      salerShow: info?.saler_show === '1',
      trialShow: info?.expirence_money_show === '1',
      defaultLimit: info?.VITE_MERCHANT_COUNT_LIMITATION || '-1',
      moneyName,
    }),
    [isAdmin, kind.userType, info, moneyName],
  );
  const columns = useMemo(
    () =>
      customerColumns(kind.columns, {
        t: (id, values) => intl.formatMessage({ id }, values),
        moneyName,
        loginAs: true,
        transfer: assets.length > 0,
        onStatus: (row) => dialogs.status.send({ type: 'OPEN', target: row }),
        onAction: (action: RowAction, row) => {
          if (action === 'loginAs') {
            window.open(loginAsUrl(row.id), '_blank', 'noopener');
            return;
          }
          if (action === 'transfer') {
            transfer.send({
              type: 'OPEN',
              form: { picked: { id: row.id, label: userLabel(row) } },
            });
            return;
          }
          if (action === 'edit') {
            dialogs.form.send({ type: 'OPEN', target: row, given: formSettings });
            return;
          }
          const actor = {
            password: dialogs.password,
            permissions: dialogs.permissions,
            delete: dialogs.remove,
          }[action];
          actor.send({ type: 'OPEN', target: row });
        },
      }),
    [intl, moneyName, kind, assets, dialogs, transfer, formSettings],
  );
  const mayCreate = isAdmin || (user?.user_type === 1 && kind.partnerCreates);
  const partnerOnPartners = user?.user_type === 1 && props.kind === 'partner';
  const title = t(kind.titleId);

  return (
    <Page
      title={title}
      actions={
        mayCreate && (
          <Button onClick={() => form.send({ type: 'OPEN', target: null, given: formSettings })}>
            {t(kind.addId)}
          </Button>
        )
      }
    >
      <Stack gap="4">
        {partnerOnPartners && <PartnerSelfNote />}
        <CustomerFilterBar
          draft={draft}
          setDraft={setDraft}
          isAdmin={isAdmin}
          agentFilter={kind.agentFilter}
          onApply={() => list.setFilters({ ...draft, sort: filters.sort, order: filters.order })}
          onReset={() => {
            setDraft(NO_CUSTOMER_FILTERS);
            list.setFilters(NO_CUSTOMER_FILTERS);
          }}
        />
        <DataTable
          label={t('customers.tableOf', { title })}
          testId="customers-table"
          {...(partnerOnPartners ? { emptyText: t('customers.noPartners') } : {})}
          columns={columns}
          rowKey={(r) => r.id}
          {...list.table}
          sort={filters.sort ? { key: filters.sort, order: filters.order || 'desc' } : null}
          onSort={(sort) =>
            list.setFilters({
              ...filters,
              sort: sort.key as CustomerFilters['sort'],
              order: sort.order,
            })
          }
        />
      </Stack>
      <CustomerFormDialog actor={form} settings={formSettings} />
      <ResetPasswordDialog actor={password} />
      <StatusDialog actor={status} />
      <PermissionsDialog actor={permissions} held={held} moneyName={moneyName} />
      <DeleteDialog actor={remove} />
      {assets.length > 0 && (
        <TransferDialog
          actor={transfer}
          assets={assets}
          moneyName={moneyName}
          me={!isAdmin && user ? { name: user.name, username: user.username } : null}
        />
      )}
    </Page>
  );
}
