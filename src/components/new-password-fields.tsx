import { useIntl } from 'react-intl';
import { FormField } from './form-field';
import { PasswordInput } from './password-input';

interface Bound {
  name: string;
  value: string;
  onChange: (e: { target: { value: string } }) => void;
}

/** A new password (with the password rule as its hint) and its confirmation. */
export function NewPasswordFields(props: {
  label: 'form.newPassword' | 'form.password';
  password: Bound;
  passwordError: string | null;
  confirm?: Bound;
  confirmError?: string | null;
}) {
  const intl = useIntl();
  return (
    <>
      <FormField
        label={intl.formatMessage({ id: props.label })}
        error={props.passwordError}
        helper={intl.formatMessage({ id: 'validation.passwordRule' })}
        required
      >
        <PasswordInput {...props.password} autoComplete="new-password" />
      </FormField>
      {props.confirm && (
        <FormField
          label={intl.formatMessage({ id: 'form.confirmPassword' })}
          error={props.confirmError ?? null}
          required
        >
          <PasswordInput {...props.confirm} autoComplete="new-password" />
        </FormField>
      )}
    </>
  );
}
