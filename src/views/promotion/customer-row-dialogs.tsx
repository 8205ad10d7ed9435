import { Stack, Switch, Text } from '@chakra-ui/react';
import { useIntl } from 'react-intl';
import type { CustomerRow } from '../../api/contract/customers';
import type { Permissions } from '../../app/actors/customers';
import { FormField } from '../../components/form-field';
import { PasswordInput } from '../../components/password-input';
import { formatText } from '../../i18n/intl';
import type { MessageId } from '../../i18n/messages';
import { CustomerDialogFrame, frameProps } from '../shared/customer-dialog-frame';
import { customerLabel } from './customer-kinds';
import {
  useDialogForm,
  useDialogState,
  type CustomerDialogActor,
} from '../shared/use-dialog-state';

export type PasswordActor = CustomerDialogActor<
  CustomerRow,
  { password: string },
  unknown,
  { password: string }
>;
export type StatusActor = CustomerDialogActor<CustomerRow, { status: 0 | 1 }>;
export type DeleteActor = CustomerDialogActor<CustomerRow, { id: number }>;
export type PermissionsActor = CustomerDialogActor<CustomerRow, Permissions, unknown, Permissions>;

function useT() {
  const intl = useIntl();
  return (id: MessageId, values?: Record<string, string | number>) =>
    intl.formatMessage({ id }, values);
}

/**
 * Sets a new password (its machine holds the draft, empty on each opening, and checks it like the
 * server); the user's sessions end.
 */
export function ResetPasswordDialog(props: { actor: PasswordActor }) {
  const t = useT();
  const intl = useIntl();
  const state = useDialogState(props.actor);
  const { form, errors, set } = useDialogForm(props.actor, { password: '' });
  const error = errors.password ?? null;
  const row = state.target;
  const name = row ? customerLabel(row) : '';
  return (
    <CustomerDialogFrame
      {...frameProps(props.actor, state)}
      title={t('customers.resetTitle', { name })}
      submitLabel={t('customers.resetPassword')}
      testId="reset-password-dialog"
      onSubmit={() => props.actor.send({ type: 'SUBMIT' })}
    >
      <FormField
        label={t('form.newPassword')}
        error={error ? formatText(intl, error) : null}
        helper={t('customers.passwordHelp')}
        required
      >
        <PasswordInput
          autoComplete="new-password"
          value={form.password}
          disabled={state.submitting}
          onChange={(e) => set('password', e.currentTarget.value)}
        />
      </FormField>
    </CustomerDialogFrame>
  );
}

/** Enable or disable an account, after a confirmation. */
export function StatusDialog(props: { actor: StatusActor }) {
  const t = useT();
  const state = useDialogState(props.actor);
  const row = state.target;
  const name = row ? customerLabel(row) : '';
  const disabling = row?.status === 1;
  return (
    <CustomerDialogFrame
      {...frameProps(props.actor, state)}
      title={t(disabling ? 'customers.disableTitle' : 'customers.enableTitle', { name })}
      submitLabel={t(disabling ? 'customers.disable' : 'customers.enable')}
      danger={disabling}
      testId="status-dialog"
      onSubmit={() => props.actor.send({ type: 'SUBMIT', payload: { status: disabling ? 0 : 1 } })}
    >
      <Text>{t(disabling ? 'customers.disableText' : 'customers.enableText')}</Text>
    </CustomerDialogFrame>
  );
}

/** Delete after a confirmation; the server refuses while balances or users remain. */
export function DeleteDialog(props: { actor: DeleteActor }) {
  const t = useT();
  const state = useDialogState(props.actor);
  const row = state.target;
  const name = row ? customerLabel(row) : '';
  return (
    <CustomerDialogFrame
      {...frameProps(props.actor, state)}
      title={t('customers.deleteTitle', { name })}
      submitLabel={t('customers.delete')}
      danger
      testId="delete-dialog"
      onSubmit={() => props.actor.send({ type: 'SUBMIT', payload: { id: row?.id ?? 0 } })}
    >
      <Text>{t('customers.deleteText')}</Text>
    </CustomerDialogFrame>
  );
}

const NO_FLAGS: Permissions = {
  can_transfer_money: 0,
  can_transfer_digital_man: 0,
  can_transfer_digital_voice: 0,
};

const FLAGS: readonly { key: keyof Permissions; label: MessageId }[] = [
  { key: 'can_transfer_money', label: 'customers.canMoney' },
  { key: 'can_transfer_digital_man', label: 'customers.canDigitalMan' },
  { key: 'can_transfer_digital_voice', label: 'customers.canVoice' },
];

/**
 * The three transfer flags of a user. `held` are the caller's own flags (null: admin, all); a
 * partner may switch off anything but switch on only what it holds (the server checks too).
 */
export function PermissionsDialog(props: {
  actor: PermissionsActor;
  held: Permissions | null;
  moneyName: string;
}) {
  const t = useT();
  const state = useDialogState(props.actor);
  const row = state.target;
  const { form: flags, set } = useDialogForm(props.actor, NO_FLAGS);
  const name = row ? customerLabel(row) : '';
  return (
    <CustomerDialogFrame
      {...frameProps(props.actor, state)}
      title={t('customers.permissionsTitle', { name })}
      submitLabel={t('form.save')}
      testId="permissions-dialog"
      onSubmit={() => props.actor.send({ type: 'SUBMIT' })}
    >
      <Stack gap="3">
        {FLAGS.map((f) => {
          const mayGrant = props.held === null || props.held[f.key] === 1;
          const locked = !mayGrant && flags[f.key] === 0;
          return (
            <Stack key={f.key} gap="1">
              <Switch.Root
                checked={flags[f.key] === 1}
                disabled={locked || state.submitting}
                onCheckedChange={(e) => set(f.key, e.checked ? 1 : 0)}
              >
                <Switch.HiddenInput />
                <Switch.Control />
                <Switch.Label>{t(f.label, { moneyName: props.moneyName })}</Switch.Label>
              </Switch.Root>
              {!mayGrant && (
                <Text fontSize="xs" color="fg.muted">
                  {t('customers.notHeld')}
                </Text>
              )}
            </Stack>
          );
        })}
      </Stack>
    </CustomerDialogFrame>
  );
}
