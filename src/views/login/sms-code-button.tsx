import { Button } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { mobileRule, type CaptchaBody } from '../../api/contract/auth';
import { useAppActors } from '../../app/actors/actors-context';

/** Sends the SMS code for `mobile`; counts down before it may send again. */
export function SmsCodeButton(props: {
  mobile: string;
  purpose: CaptchaBody['purpose'];
  onInvalidMobile: (messageId: string) => void;
}) {
  const intl = useIntl();
  // One app-level actor per purpose (src/app/actors/account.ts): the countdown outlives the dialog.
  const actor = useAppActors().account().sms[props.purpose];
  const sending = useSelector(actor, (s) => s.hasTag('sending'));
  const cooling = useSelector(actor, (s) => s.hasTag('cooldown'));
  const secondsLeft = useSelector(actor, (s) => s.context.secondsLeft);
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
        actor.send({ type: 'SEND', mobile: parsed.data });
      }}
    >
      {cooling
        ? intl.formatMessage({ id: 'sms.resendIn' }, { seconds: secondsLeft })
        : intl.formatMessage({ id: 'sms.send' })}
    </Button>
  );
}
