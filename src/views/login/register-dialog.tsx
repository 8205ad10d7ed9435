import { HStack, Input } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { register } from '../../api/auth';
import { registerBody, type RegisterBody } from '../../api/contract/auth';
import { useFormSubmit } from '../../app/use-form-submit';
import { fieldErrors } from '../../app/zod-errors';
import { FormDialog } from '../../components/form-dialog';
import { FormField } from '../../components/form-field';
import { PasswordInput } from '../../components/password-input';
import { notify } from '../../components/toaster';
import { formatText } from '../../i18n/intl';
import { SmsCodeButton } from './sms-code-button';

type Values = Omit<RegisterBody, 'domain'>;
const empty: Values = { username: '', password: '', mobile: '', code: '' };

/** Merchant sign-up under the partner that owns this domain (offered when the platform allows it). */
export function RegisterDialog(props: {
  open: boolean;
  onClose: () => void;
  onRegistered: (username: string) => void;
}) {
  const intl = useIntl();
  const [values, setValues] = useState<Values>(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const form = useFormSubmit(register);
  const { done, reset } = form;
  const { onClose, onRegistered } = props;

  useEffect(() => {
    if (!done) return;
    notify('success', intl.formatMessage({ id: 'register.done' }));
    onRegistered(values.username);
    setValues(empty);
    reset();
    onClose();
  }, [done, reset, onClose, onRegistered, values.username, intl]);

  const set = (key: keyof Values) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));
  const err = (key: string) => (errors[key] ? formatText(intl, errors[key]) : null);

  return (
    <FormDialog
      open={props.open}
      title={intl.formatMessage({ id: 'register.title' })}
      submitLabel={intl.formatMessage({ id: 'register.submit' })}
      submitting={form.submitting}
      onClose={props.onClose}
      onSubmit={() => {
        const parsed = registerBody.safeParse({ ...values, domain: window.location.hostname });
        setErrors(parsed.success ? {} : fieldErrors(parsed.error));
        if (parsed.success) form.submit(parsed.data);
      }}
    >
      <FormField
        label={intl.formatMessage({ id: 'form.account' })}
        error={err('username')}
        required
      >
        <Input value={values.username} onChange={set('username')} autoComplete="username" />
      </FormField>
      <FormField
        label={intl.formatMessage({ id: 'form.password' })}
        error={err('password')}
        helper={intl.formatMessage({ id: 'validation.passwordRule' })}
        required
      >
        <PasswordInput
          value={values.password}
          onChange={set('password')}
          autoComplete="new-password"
        />
      </FormField>
      <FormField label={intl.formatMessage({ id: 'form.mobile' })} error={err('mobile')} required>
        <Input
          value={values.mobile}
          onChange={set('mobile')}
          inputMode="numeric"
          autoComplete="tel"
        />
      </FormField>
      <FormField label={intl.formatMessage({ id: 'form.smsCode' })} error={err('code')} required>
        <HStack width="full">
          <Input
            value={values.code}
            onChange={set('code')}
            inputMode="numeric"
            autoComplete="one-time-code"
          />
          <SmsCodeButton
            mobile={values.mobile}
            purpose="register"
            onInvalidMobile={(id) => setErrors((e) => ({ ...e, mobile: id }))}
          />
        </HStack>
      </FormField>
    </FormDialog>
  );
}
