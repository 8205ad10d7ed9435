import { Alert, Input, NativeSelect, Text, Textarea } from '@chakra-ui/react';
import { useIntl } from 'react-intl';
import { PACKAGE_DESCRIPTION_MAX, type RechargePackage } from '../../api/contract/recharge';
import { FormField } from '../../components/form-field';
import { formatText } from '../../i18n/intl';
import type { MessageId } from '../../i18n/messages';
import { CustomerDialogFrame, frameProps } from '../shared/customer-dialog-frame';
import {
  useDialogForm,
  useDialogState,
  type CustomerDialogActor,
} from '../shared/use-dialog-state';
import {
  initialPackageValues,
  type PackagePayload,
  type PackageValues,
} from '../../app/actors/package-form';

/**
 * The package dialogs. They run on the customer dialog machine (closed → editing → submitting →
 * done | failed; generic over the row and the payload) and share its frame: the server's refusal
 * shows in the dialog with Retry and Back to the form.
 */
export type PackageFormActor = CustomerDialogActor<
  RechargePackage,
  PackagePayload,
  unknown,
  PackageValues
>;
export type PackageDeleteActor = CustomerDialogActor<RechargePackage, { id: number }>;

type T = (id: MessageId, values?: Record<string, string | number>) => string;

function useT(): T {
  const intl = useIntl();
  return (id, values) => intl.formatMessage({ id }, values);
}

const EMPTY = initialPackageValues(null);

/**
 * Create or edit a package; its machine holds the draft and checks it with the server's own
 * schemas before anything is sent (docs/architecture.md "Forms").
 */
export function PackageFormDialog(props: { actor: PackageFormActor; moneyName: string }) {
  const intl = useIntl();
  const t = useT();
  const state = useDialogState(props.actor);
  const row = state.target;
  const { form: values, errors, set } = useDialogForm(props.actor, EMPTY);
  const locked = state.submitting;
  const error = (key: keyof PackageValues) => (errors[key] ? formatText(intl, errors[key]) : null);
  const bind = (key: keyof PackageValues) => ({
    name: key,
    value: values[key],
    disabled: locked,
    onChange: (e: { currentTarget: { value: string } }) => set(key, e.currentTarget.value),
  });
  const money = { moneyName: props.moneyName };
  const amount = (key: 'price' | 'money' | 'gift', label: string, required: boolean) => (
    <FormField label={label} error={error(key)} required={required}>
      <Input {...bind(key)} inputMode="decimal" autoComplete="off" />
    </FormField>
  );
  return (
    <CustomerDialogFrame
      {...frameProps(props.actor, state)}
      title={row ? t('packages.editTitle', { name: row.name }) : t('packages.addTitle')}
      submitLabel={t(row ? 'form.save' : 'packages.create')}
      testId="package-dialog"
      onSubmit={() => props.actor.send({ type: 'SUBMIT' })}
    >
      <FormField label={t('packages.name')} error={error('name')} required>
        <Input {...bind('name')} autoComplete="off" />
      </FormField>
      {amount('price', t('packages.priceCny'), true)}
      {amount('money', t('packages.moneyOf', money), true)}
      {amount('gift', t('packages.giftOf', money), false)}
      <FormField label={t('packages.sort')} error={error('sort')} helper={t('packages.sortHelp')}>
        <Input {...bind('sort')} inputMode="numeric" autoComplete="off" />
      </FormField>
      <FormField label={t('packages.status')} error={error('status')}>
        <NativeSelect.Root disabled={locked}>
          <NativeSelect.Field {...bind('status')}>
            <option value="1">{t('packages.onSale')}</option>
            <option value="0">{t('packages.offSale')}</option>
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </FormField>
      <FormField
        label={t('packages.description')}
        error={error('description')}
        helper={t('packages.descriptionHelp', { max: PACKAGE_DESCRIPTION_MAX })}
      >
        <Textarea {...bind('description')} rows={3} />
      </FormField>
      {errors._form && (
        <Alert.Root status="warning" role="alert">
          <Alert.Indicator />
          <Alert.Title>{formatText(intl, errors._form)}</Alert.Title>
        </Alert.Root>
      )}
    </CustomerDialogFrame>
  );
}

/** Delete after a confirmation (soft: orders keep the package's name). */
export function PackageDeleteDialog(props: { actor: PackageDeleteActor }) {
  const t = useT();
  const state = useDialogState(props.actor);
  const row = state.target;
  return (
    <CustomerDialogFrame
      {...frameProps(props.actor, state)}
      title={t('packages.deleteTitle', { name: row?.name ?? '' })}
      submitLabel={t('packages.delete')}
      danger
      testId="package-delete-dialog"
      onSubmit={() => props.actor.send({ type: 'SUBMIT', payload: { id: row?.id ?? 0 } })}
    >
      <Text>{t('packages.deleteText')}</Text>
    </CustomerDialogFrame>
  );
}
