import { Input } from '@chakra-ui/react';
import { useIntl } from 'react-intl';
import { DateField } from '../../components/date-field';
import { FormField } from '../../components/form-field';
import { PasswordInput } from '../../components/password-input';
import { formatText } from '../../i18n/intl';
import type { MessageId } from '../../i18n/messages';
import { CustomerDialogFrame, frameProps } from '../shared/customer-dialog-frame';
import {
  initialValues,
  type FormPayload,
  type FormSettings,
  type Values,
} from '../../app/actors/customer-form';
import type { CustomerRow } from '../../api/contract/customers';
import { customerLabel } from './customer-kinds';
import { PartnerFields } from './customer-partner-fields';
import { UserPicker } from './customer-pickers';
import {
  useDialogForm,
  useDialogState,
  type CustomerDialogActor,
} from '../shared/use-dialog-state';

export type FormActor = CustomerDialogActor<
  CustomerRow,
  FormPayload,
  unknown,
  Values,
  FormSettings
>;

const EMPTY = initialValues(null, '-1');

/**
 * Create or edit a partner, merchant or agent. The machine holds the draft (started from the row
 * and the settings given with OPEN) and checks it with the server's own schemas.
 */
export function CustomerFormDialog(props: { actor: FormActor; settings: FormSettings }) {
  const intl = useIntl();
  const t = (id: MessageId, values?: Record<string, string | number>) =>
    intl.formatMessage({ id }, values);
  const s = props.settings;
  const state = useDialogState(props.actor);
  const row = state.target;
  const { form: values, errors, set: setField } = useDialogForm(props.actor, EMPTY);
  const setValues = (update: (v: Values) => Values) => {
    const next = update(values);
    for (const key of Object.keys(next) as (keyof Values)[]) {
      if (next[key] !== values[key]) setField(key, next[key]);
    }
  };
  const locked = state.submitting;
  const set = (key: keyof Values) => (e: { currentTarget: { value: string } }) =>
    setField(key, e.currentTarget.value);
  const error = (key: keyof Values) => (errors[key] ? formatText(intl, errors[key]) : null);
  const text = (
    key: keyof Values,
    label: MessageId,
    extra?: { required?: boolean; helper?: string; type?: string; autoComplete?: string },
  ) => (
    <FormField
      label={t(label, { moneyName: s.moneyName })}
      error={error(key)}
      required={extra?.required}
      helper={extra?.helper}
    >
      <Input
        name={key}
        type={extra?.type ?? 'text'}
        autoComplete={extra?.autoComplete ?? 'off'}
        value={values[key] as string}
        disabled={locked}
        onChange={set(key)}
      />
    </FormField>
  );
  const merchant = s.userType === 2;
  const partner = s.userType === 1;
  const title = row
    ? t('customers.editTitle', { name: customerLabel(row) })
    : t(
        partner
          ? 'customers.addPartner'
          : merchant
            ? 'customers.addMerchant'
            : 'customers.addAgent',
      );

  return (
    <CustomerDialogFrame
      {...frameProps(props.actor, state)}
      title={title}
      submitLabel={t(row ? 'form.save' : 'customers.create')}
      testId="customer-form-dialog"
      onSubmit={() => props.actor.send({ type: 'SUBMIT' })}
    >
      {!row && text('username', 'customers.username', { required: true })}
      {!row && (
        <FormField
          label={t('form.password')}
          error={error('password')}
          helper={t('customers.passwordHelp')}
          required
        >
          <PasswordInput
            name="password"
            autoComplete="new-password"
            value={values.password}
            disabled={locked}
            onChange={set('password')}
          />
        </FormField>
      )}
      {!row && s.isAdmin && !partner && (
        <UserPicker
          userType={1}
          label={t('customers.partner')}
          emptyLabel={t('customers.choosePartner')}
          value={values.serviceId}
          onChange={(serviceId) => setValues((v) => ({ ...v, serviceId, agentId: '' }))}
          error={error('serviceId')}
          disabled={locked}
          required
        />
      )}
      {partner && s.isAdmin && (
        <PartnerFields
          values={values}
          setValues={setValues}
          error={error}
          locked={locked}
          row={row}
        />
      )}
      {merchant && s.salerShow && (
        <UserPicker
          userType={3}
          label={t('customers.agent')}
          emptyLabel={t('customers.noAgent')}
          value={values.agentId}
          onChange={(agentId) => setValues((v) => ({ ...v, agentId }))}
          error={error('agentId')}
          disabled={locked}
          servicePartner={s.isAdmin ? Number(values.serviceId) || null : null}
        />
      )}
      {!row &&
        merchant &&
        !s.isAdmin &&
        s.trialShow &&
        text('trialMoney', 'customers.trialMoney', { helper: t('customers.trialHelp') })}
      {text('name', 'customers.name')}
      {text('mobile', 'customers.mobile', { type: 'tel' })}
      {text('email', 'customers.email', { type: 'email' })}
      <FormField label={t('customers.expireDate')} error={error('expireDate')}>
        <DateField
          label={t('customers.expireDate')}
          value={values.expireDate}
          disabled={locked}
          onChange={(expireDate) => setValues((v) => ({ ...v, expireDate }))}
        />
      </FormField>
      {text('remark', 'customers.remark')}
    </CustomerDialogFrame>
  );
}
