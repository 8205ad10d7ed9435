import { HStack, Input, NativeSelect, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import type { ActorRefFrom } from 'xstate';
import type { Account } from '../../api/contract/dashboard';
import { transferBody, type Asset } from '../../api/contract/money';
import { roleOf } from '../../api/contract/roles';
import { useArea } from '../../app/actors/areas';
import { moneyArea } from '../../app/actors/money';
import { useListActor } from '../../app/hooks/use-list';
import { fieldErrors } from '../../app/hooks/zod-errors';
import { FormField } from '../../components/form-field';
import type { MessageId } from '../../i18n/messages';
import type { transferMachine } from '../../machines/transfer';
import {
  ASSET_LABEL,
  amountForApi,
  apiUnits,
  balanceUnits,
  dhTimeForApi,
  formatAmount,
  type DhTimeTyped,
} from './amounts';
import { StepDialog, Summary } from '../../components/step-dialog';
import { Failure, StepButtons } from './money-dialog';

export interface Picked {
  id: number;
  label: string;
}

const SEARCH_DELAY_MS = 300;

/** "Name (account)" of a user. */
export const userLabel = (u: { name: string; username: string }) =>
  u.name && u.name !== u.username ? `${u.name} (${u.username})` : u.username;

/** Users the caller may transfer to, searched by keyword as the person types. */
function RecipientPicker(props: {
  keyword: string;
  onKeyword: (keyword: string) => void;
  picked: Picked | null;
  onPick: (user: Picked | null) => void;
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
  /** The user the dialog opens with (a customer row's "Transfer"); null: the person picks. */
  recipient?: Picked | null;
}) {
  const intl = useIntl();
  const { actor, assets, moneyName } = props;
  const state = useSelector(actor, (s) => s.value);
  const context = useSelector(actor, (s) => s.context);
  const [keyword, setKeyword] = useState('');
  const [picked, setPicked] = useState<Picked | null>(null);
  const [chosenAsset, setAsset] = useState<Asset | ''>('');
  const [direction, setDirection] = useState<'give' | 'take'>('give');
  const [amount, setAmount] = useState('');
  const [dhTime, setDhTime] = useState<DhTimeTyped>({ minutes: '', seconds: '' });
  const [remark, setRemark] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const fresh = state === 'editing' && context.draft === null;
  const recipient = props.recipient ?? null;
  useEffect(() => {
    if (!fresh) return;
    setKeyword('');
    setPicked(recipient);
    setAsset('');
    setDirection('give');
    setAmount('');
    setDhTime({ minutes: '', seconds: '' });
    setRemark('');
    setErrors({});
  }, [fresh, recipient]);
  const asset = assets.includes(chosenAsset as Asset) ? (chosenAsset as Asset) : assets[0];

  const t = (id: MessageId, values?: Record<string, string | number>) =>
    intl.formatMessage({ id }, values);
  const assetLabel = (a: Asset) => t(ASSET_LABEL[a], { moneyName });
  const error = (key: string) => (errors[key] ? t(errors[key] as MessageId) : null);
  const platform = t('property.platform');
  const me = props.me ? userLabel(props.me) : platform;

  const review = () => {
    const found: Record<string, string> = {};
    const converted = !asset
      ? { error: 'validation.asset' as const }
      : asset === 'digital_man'
        ? dhTimeForApi(dhTime)
        : amountForApi(asset, amount);
    if ('error' in converted) found.amount = converted.error;
    const parsed = transferBody.safeParse({
      to_user_id: picked?.id ?? 0,
      asset,
      amount: 'amount' in converted ? converted.amount : amount,
      remark,
      direction,
    });
    if (!parsed.success) Object.assign(found, fieldErrors(parsed.error), found);
    // Giving more than one holds could only be refused: said here, before confirming.
    const balances = props.balances ?? null;
    if (
      !found.amount &&
      parsed.success &&
      direction === 'give' &&
      balances &&
      apiUnits(parsed.data.asset, String(parsed.data.amount)) >
        balanceUnits(balances, parsed.data.asset)
    ) {
      found.amount = 'property.overBalance';
    }
    setErrors(found);
    if (Object.keys(found).length || !parsed.success || !picked) return;
    actor.send({
      type: 'REVIEW',
      draft: {
        toUserId: picked.id,
        toLabel: picked.label,
        asset: parsed.data.asset,
        direction,
        amount: String(parsed.data.amount),
        remark: parsed.data.remark ?? '',
      },
    });
  };

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
            keyword={keyword}
            onKeyword={setKeyword}
            picked={picked}
            onPick={setPicked}
            error={error('to_user_id')}
          />
          <FormField label={t('property.asset')} error={error('asset')} required>
            <NativeSelect.Root>
              <NativeSelect.Field
                value={asset ?? ''}
                onChange={(e) => setAsset(e.currentTarget.value as Asset)}
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
                value={direction}
                onChange={(e) => setDirection(e.currentTarget.value as 'give' | 'take')}
              >
                <option value="give">{t('property.give')}</option>
                <option value="take">{t('property.take')}</option>
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </FormField>
          {asset === 'digital_man' ? (
            <DhTimeFields value={dhTime} onChange={setDhTime} error={error('amount')} t={t} />
          ) : (
            <FormField
              label={t('property.amountIn', { unit: asset ? unitOf(asset) : '' })}
              error={error('amount')}
              required
            >
              <Input
                inputMode="decimal"
                autoComplete="off"
                value={amount}
                onChange={(e) => setAmount(e.currentTarget.value)}
              />
            </FormField>
          )}
          <FormField label={t('property.remark')} error={error('remark')}>
            <Input
              value={remark}
              maxLength={200}
              onChange={(e) => setRemark(e.currentTarget.value)}
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
  onChange: (value: DhTimeTyped) => void;
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
            onChange={(e) => props.onChange({ ...value, [part]: e.currentTarget.value })}
          />
        </FormField>
      ))}
    </HStack>
  );
}
