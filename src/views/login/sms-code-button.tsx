import { Button } from '@chakra-ui/react';
import { useMachine } from '@xstate/react';
import { useIntl } from 'react-intl';
import { fromPromise } from 'xstate';
import { getCaptcha } from '../../api/auth';
import { mobileRule, type CaptchaBody } from '../../api/contract/auth';
import { smsCodeMachine } from '../../machines/sms-code';

/** Sends the SMS code for `mobile`; counts down before it may send again. */
export function SmsCodeButton(props: {
  mobile: string;
  purpose: CaptchaBody['purpose'];
  onInvalidMobile: (messageId: string) => void;
}) {
  const intl = useIntl();
  const [state, send] = useMachine(
    smsCodeMachine.provide({
      actors: {
        sendCode: fromPromise(async ({ input }) => {
          await getCaptcha({ mobile: input.mobile, purpose: props.purpose });
        }),
      },
    }),
  );
  const sending = state.hasTag('sending');
  const cooling = state.hasTag('cooldown');
  return (
    <Button
      variant="outline"
      flexShrink={0}
      disabled={cooling}
      loading={sending}
      loadingText={intl.formatMessage({ id: 'sms.sending' })}
      aria-busy={sending}
      onClick={() => {
        const parsed = mobileRule.safeParse(props.mobile);
        if (!parsed.success) {
          props.onInvalidMobile(parsed.error.issues[0].message);
          return;
        }
        send({ type: 'SEND', mobile: parsed.data });
      }}
    >
      {cooling
        ? intl.formatMessage({ id: 'sms.resendIn' }, { seconds: state.context.secondsLeft })
        : intl.formatMessage({ id: 'sms.send' })}
    </Button>
  );
}
