import { Button } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { FailureAlert } from '../../components/step-dialog';

/** Why a submission failed; when the reply was lost, that a retry is safe. */
export function Failure(props: { error: string | null; uncertain: boolean }) {
  const intl = useIntl();
  return (
    <FailureAlert
      error={props.error}
      hint={props.uncertain ? intl.formatMessage({ id: 'property.uncertain' }) : undefined}
    />
  );
}

/**
 * The buttons of each step of a confirm-then-submit dialog (transfer, exchange, card generate and
 * transfer), named alike in all of them. `done` replaces the last step's "another one" / "close".
 */
export function StepButtons(props: {
  step: 'editing' | 'confirming' | 'submitting' | 'failed' | 'done' | 'closed';
  uncertain: boolean;
  confirmLabel: string;
  /** A machine that cannot tell a lost reply from a refusal offers Retry after either. */
  retryAlways?: boolean;
  send: (type: 'BACK' | 'SUBMIT' | 'RETRY' | 'AGAIN' | 'CLOSE') => void;
  done?: ReactNode;
}) {
  const intl = useIntl();
  const t = (id: 'form.cancel' | 'form.close' | 'property.next' | 'property.back') =>
    intl.formatMessage({ id });
  const { step, send } = props;
  const submitting = step === 'submitting';
  switch (step) {
    case 'editing':
      return (
        <>
          <Button variant="outline" onClick={() => send('CLOSE')}>
            {t('form.cancel')}
          </Button>
          <Button type="submit">{t('property.next')}</Button>
        </>
      );
    case 'confirming':
    case 'submitting':
      return (
        <>
          <Button variant="outline" disabled={submitting} onClick={() => send('BACK')}>
            {t('property.back')}
          </Button>
          <Button
            loading={submitting}
            loadingText={props.confirmLabel}
            aria-busy={submitting}
            onClick={() => send('SUBMIT')}
          >
            {props.confirmLabel}
          </Button>
        </>
      );
    case 'failed':
      if (props.retryAlways && !props.uncertain) {
        return (
          <>
            <Button variant="outline" onClick={() => send('BACK')}>
              {t('property.back')}
            </Button>
            <Button onClick={() => send('RETRY')}>
              {intl.formatMessage({ id: 'property.retry' })}
            </Button>
          </>
        );
      }
      // After a lost reply: the same submission again (or close), never an edit into a second
      // one; after a refusal: back to the form, since sending it again would be refused again.
      return (
        <>
          <Button variant="outline" onClick={() => send('CLOSE')}>
            {t('form.close')}
          </Button>
          {props.uncertain ? (
            <Button onClick={() => send('RETRY')}>
              {intl.formatMessage({ id: 'property.retry' })}
            </Button>
          ) : (
            <Button onClick={() => send('BACK')}>{t('property.back')}</Button>
          )}
        </>
      );
    case 'done':
      if (props.done) return props.done;
      return (
        <>
          <Button variant="outline" onClick={() => send('AGAIN')}>
            {intl.formatMessage({ id: 'property.again' })}
          </Button>
          <Button onClick={() => send('CLOSE')}>{t('form.close')}</Button>
        </>
      );
    default:
      return null;
  }
}
