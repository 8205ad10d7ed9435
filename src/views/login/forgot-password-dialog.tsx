import { HStack, Input } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { resetPwd } from '../../api/auth';
import { resetPwdBody, type ResetPwdBody } from '../../api/contract/auth';
import { useFormSubmit } from '../../app/use-form-submit';
import { fieldErrors } from '../../app/zod-errors';
import { FormDialog } from '../../components/form-dialog';
import { FormField } from '../../components/form-field';
import { PasswordInput } from '../../components/password-input';
import { notify } from '../../components/toaster';
import { formatText } from '../../i18n/intl';
import { SmsCodeButton } from './sms-code-button';

const empty: ResetPwdBody = { mobile: '', code: '', new_password: '', confirm_password: '' };

/** Forgot password: an SMS code to the account's mobile, then a new password. */
export function ForgotPasswordDialog(props: { open: boolean; onClose: () => void }) {
  const intl = useIntl();
  const [values, setValues] = useState<ResetPwdBody>(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const form = useFormSubmit(resetPwd);
  const { done, reset } = form;
  const { onClose } = props;

  useEffect(() => {
    if (!done) return;
    notify('success', intl.formatMessage({ id: 'forgot.done' }));
    setValues(empty);
    reset();
    onClose();
  }, [done, reset, onClose, intl]);

  const set = (key: keyof ResetPwdBody) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));
  const err = (key: string) => (errors[key] ? formatText(intl, errors[key]) : null);

  return (
    <FormDialog
      open={props.open}
      title={intl.formatMessage({ id: 'forgot.title' })}
      submitLabel={intl.formatMessage({ id: 'forgot.submit' })}
      submitting={form.submitting}
      onClose={props.onClose}
      onSubmit={() => {
        const parsed = resetPwdBody.safeParse(values);
        setErrors(parsed.success ? {} : fieldErrors(parsed.error));
        if (parsed.success) form.submit(parsed.data);
      }}
    >
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
            purpose="reset"
            onInvalidMobile={(id) => setErrors((e) => ({ ...e, mobile: id }))}
          />
        </HStack>
      </FormField>
      <FormField
        label={intl.formatMessage({ id: 'form.newPassword' })}
        error={err('new_password')}
        helper={intl.formatMessage({ id: 'validation.passwordRule' })}
        required
      >
        <PasswordInput
          value={values.new_password}
          onChange={set('new_password')}
          autoComplete="new-password"
        />
      </FormField>
      <FormField
        label={intl.formatMessage({ id: 'form.confirmPassword' })}
        error={err('confirm_password')}
        required
      >
        <PasswordInput
          value={values.confirm_password}
          onChange={set('confirm_password')}
          autoComplete="new-password"
        />
      </FormField>
    </FormDialog>
  );
}
