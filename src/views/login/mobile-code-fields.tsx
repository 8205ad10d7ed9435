import { HStack, Input } from '@chakra-ui/react';
import { useIntl } from 'react-intl';
import type { CaptchaBody } from '../../api/contract/auth';
import { FormField } from '../../components/form-field';
import { SmsCodeButton } from './sms-code-button';

/** What these fields need of a form with `mobile` and `code` (see useSchemaForm). */
interface MobileCodeForm {
  values: { mobile: string };
  bind(key: 'mobile' | 'code'): {
    name: string;
    value: string;
    onChange: (e: { target: { value: string } }) => void;
  };
  error(key: string): string | null;
  setError(key: string, messageId: string): void;
}

/** A mobile number and the SMS code sent to it. */
export function MobileCodeFields(props: { form: MobileCodeForm; purpose: CaptchaBody['purpose'] }) {
  const intl = useIntl();
  const { form } = props;
  return (
    <>
      <FormField
        label={intl.formatMessage({ id: 'form.mobile' })}
        error={form.error('mobile')}
        required
      >
        <Input {...form.bind('mobile')} inputMode="numeric" autoComplete="tel" />
      </FormField>
      <FormField
        label={intl.formatMessage({ id: 'form.smsCode' })}
        error={form.error('code')}
        required
      >
        <HStack width="full">
          <Input {...form.bind('code')} inputMode="numeric" autoComplete="one-time-code" />
          <SmsCodeButton
            mobile={form.values.mobile}
            purpose={props.purpose}
            onInvalidMobile={(id) => form.setError('mobile', id)}
          />
        </HStack>
      </FormField>
    </>
  );
}
