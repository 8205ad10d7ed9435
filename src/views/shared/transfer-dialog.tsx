import { HStack, Input, NativeSelect, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useIntl } from 'react-intl';
import type { ActorRefFrom } from 'xstate';
import type { Account } from '../../api/contract/dashboard';
import type { Asset } from '../../api/contract/money';
import { roleOf } from '../../api/contract/roles';
import { useArea } from '../../app/actors/areas';
import { moneyArea } from '../../app/actors/money';
import { useListActor } from '../../app/hooks/use-list';
import { FormField } from '../../components/form-field';
import type { MessageId } from '../../i18n/messages';
import type { DhTimeTyped } from '../../machines/transfer';
import {
  assetOf,
  type PickedUser,
  type TransferForm,
  type transferMachine,
} from '../../machines/transfer';
import { ASSET_LABEL, formatAmount } from './amounts';
import { StepDialog, Summary } from '../../components/step-dialog';
import { Failure, StepButtons } from './money-dialog';

const SEARCH_DELAY_MS = 300;

/** "Name (account)" of a user. */
export const userLabel = (u: { name: string; username: string }) =>
  u.name && u.name !== u.username ? `${u.name} (${u.username})` : u.username;

/** Users the caller may transfer to, searched by keyword as the person types. */
function RecipientPicker(props: {
  keyword: string;
  onKeyword: (keyword: string) => void;
  picked: PickedUser | null;
  onPick: (user: PickedUser | null) => void;
  error: string | null;
}) {
  const intl = useIntl();
  const users = useListActor(useArea(moneyArea).recipients);
  const { setFilters } = users;
  const applied = users.query.filters.keyword;
  useEffect(() => {
    if (props.keyword === applied) return;
    const timer = setTimeout(() => setFilters({ keyword: props.keyword }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [props.keyword, applied, setFilters]);

  const rows = users.rows;
  const listed = props.picked && !rows.some((u) => u.id === props.picked?.id);
  return (
    <>
      <FormField label={intl.formatMessage({ id: 'property.searchUser' })}>
        <Input
          type="search"
          autoComplete="off"
          value={props.keyword}
          onChange={(e) => props.onKeyword(e.currentTarget.value)}
        />
      </FormField>
      <FormField
        label={intl.formatMessage({ id: 'property.recipient' })}
        error={props.error}
        helper={
          users.loading
            ? intl.formatMessage({ id: 'app.loading' })
            : intl.formatMessage({ id: 'property.matches' }, { count: users.total })
        }
        required
      >
        <NativeSelect.Root>
          <NativeSelect.Field
            value={props.picked ? String(props.picked.id) : ''}
            onChange={(e) => {
              const id = Number(e.currentTarget.value);
              const user = rows.find((u) => u.id === id);
              props.onPick(user ? { id: user.id, label: userLabel(user) } : null);
            }}
          >
            <option value="">{intl.formatMessage({ id: 'property.chooseUser' })}</option>
            {listed && props.picked && (
              <option value={props.picked.id}>{props.picked.label}</option>
            )}
            {rows.map((u) => (
              <option key={u.id} value={u.id}>
                {`${userLabel(u)} · ${intl.formatMessage({ id: `role.${roleOf(u.user_type)}` as MessageId })}`}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </FormField>
    </>
  );
}

/** Give to, or take back from, a user of one's subtree: form, confirmation, outcome. */
export function TransferDialog(props: {
  actor: ActorRefFrom<typeof transferMachine>;
  assets: readonly Asset[];
  moneyName: string;
  /**
   * Who the caller is, for "from" / "to", named as the result names users; null for the
   * administrator (the platform).
   */
  me: { name: string; username: string } | null;
  /** The caller's balances: more than it holds is refused before confirming; null: no check. */
  balances?: Account | null;
}) {
  const intl = useIntl();
  const { actor, assets, moneyName } = props;
  const state = useSelector(actor, (s) => s.value);
  const context = useSelector(actor, (s) => s.context);
  // The form is the machine's (docs/architecture.md "Forms"): opening the dialog starts it afresh.
  const form = useSelector(actor, (s) => s.context.form);
  const errors = useSelector(actor, (s) => s.context.errors);
  const set = <K extends keyof TransferForm & string>(field: K, value: TransferForm[K]) =>
    actor.send({ type: 'SET', field, value });
  const asset = assetOf(form, assets);

  const t = (id: MessageId, values?: Record<string, string | number>) =>
    intl.formatMessage({ id }, values);
  const assetLabel = (a: Asset) => t(ASSET_LABEL[a], { moneyName });
  const error = (key: string) => (errors[key] ? t(errors[key] as MessageId) : null);
  const platform = t('property.platform');
  const me = props.me ? userLabel(props.me) : platform;

  const review = () =>
    actor.send({ type: 'REVIEW', with: { assets, balances: props.balances ?? null } });

  const draft = context.draft;
  const result = context.result;
  // Digital-human time names its own units ("2 分 13 秒").
  const amountText = (a: Asset, api: string) =>
    a === 'digital_man' ? formatAmount(intl, a, api) : `${formatAmount(intl, a, api)} ${unitOf(a)}`;
  const unitOf = (a: Asset) => (a === 'money' ? moneyName : t('property.count'));
  return (
    <StepDialog
      open={state !== 'closed'}
      title={t('property.transfer')}
      busy={state === 'submitting'}
      onClose={() => actor.send({ type: 'CLOSE' })}
      onSubmit={state === 'editing' ? review : undefined}
      footer={
        <StepButtons
          step={state}
          uncertain={context.uncertain}
          confirmLabel={t('property.confirmTransfer')}
          send={(type) => actor.send({ type })}
        />
      }
    >
      {state === 'editing' && (
        <>
          <RecipientPicker
            keyword={form.keyword}
            onKeyword={(keyword) => set('keyword', keyword)}
            picked={form.picked}
            onPick={(user) => set('picked', user)}
            error={error('to_user_id')}
          />
          <FormField label={t('property.asset')} error={error('asset')} required>
            <NativeSelect.Root>
              <NativeSelect.Field
                value={asset ?? ''}
                onChange={(e) => set('asset', e.currentTarget.value as Asset)}
              >
                {assets.map((a) => (
                  <option key={a} value={a}>
                    {assetLabel(a)}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </FormField>
          <FormField label={t('property.direction')} required>
            <NativeSelect.Root>
              <NativeSelect.Field
                value={form.direction}
                onChange={(e) => set('direction', e.currentTarget.value as 'give' | 'take')}
              >
                <option value="give">{t('property.give')}</option>
                <option value="take">{t('property.take')}</option>
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </FormField>
          {asset === 'digital_man' ? (
            <DhTimeFields
              value={{ minutes: form.minutes, seconds: form.seconds }}
              onChange={(part, value) => set(part, value)}
              error={error('amount')}
              t={t}
            />
          ) : (
            <FormField
              label={t('property.amountIn', { unit: asset ? unitOf(asset) : '' })}
              error={error('amount')}
              required
            >
              <Input
                inputMode="decimal"
                autoComplete="off"
                value={form.amount}
                onChange={(e) => set('amount', e.currentTarget.value)}
              />
            </FormField>
          )}
          <FormField label={t('property.remark')} error={error('remark')}>
            <Input
              value={form.remark}
              maxLength={200}
              onChange={(e) => set('remark', e.currentTarget.value)}
            />
          </FormField>
        </>
      )}
      {(state === 'confirming' || state === 'submitting' || state === 'failed') && draft && (
        <>
          <Text>{t('property.confirmTransferText')}</Text>
          <Summary
            label={t('property.confirmTransfer')}
            items={[
              [t('property.from'), draft.direction === 'give' ? me : draft.toLabel],
              [t('property.to'), draft.direction === 'give' ? draft.toLabel : me],
              [t('property.asset'), assetLabel(draft.asset)],
              [t('property.amount'), amountText(draft.asset, draft.amount)],
              ...(draft.remark ? [[t('property.remark'), draft.remark] as [string, string]] : []),
            ]}
          />
        </>
      )}
      {state === 'failed' && <Failure error={context.error} uncertain={context.uncertain} />}
      {state === 'done' && result && (
        <>
          <Text role="status">{t('property.transferDone')}</Text>
          <Summary
            label={t('property.transferDone')}
            items={[
              [t('property.transferNo'), result.transfer_no],
              [
                t('property.from'),
                result.from_before === null
                  ? platform
                  : userLabel({ name: result.from_name, username: result.from_username }),
              ],
              [
                t('property.to'),
                result.to_before === null
                  ? platform
                  : userLabel({ name: result.to_name, username: result.to_username }),
              ],
              [t('property.amount'), amountText(result.asset, result.amount)],
              ...(result.from_after !== null
                ? [
                    [t('property.fromAfter'), amountText(result.asset, result.from_after)] as [
                      string,
                      string,
                    ],
                  ]
                : []),
              ...(result.to_after !== null
                ? [
                    [t('property.toAfter'), amountText(result.asset, result.to_after)] as [
                      string,
                      string,
                    ],
                  ]
                : []),
            ]}
          />
        </>
      )}
    </StepDialog>
  );
}

/** Digital-human time typed as it is shown: whole minutes and whole seconds. */
function DhTimeFields(props: {
  value: DhTimeTyped;
  onChange: (part: keyof DhTimeTyped, value: string) => void;
  error: string | null;
  t: (id: MessageId) => string;
}) {
  const { value, t } = props;
  return (
    <HStack alignItems="flex-start" gap="3">
      {(['minutes', 'seconds'] as const).map((part) => (
        <FormField
          key={part}
          label={t(part === 'minutes' ? 'property.amountMinutes' : 'property.amountSeconds')}
          // One message for both parts, under the first (the one a refused submit focuses).
          error={part === 'minutes' ? props.error : null}
        >
          <Input
            inputMode="numeric"
            autoComplete="off"
            value={value[part]}
            onChange={(e) => props.onChange(part, e.currentTarget.value)}
          />
        </FormField>
      ))}
    </HStack>
  );
}
