import { Button, Dialog, Portal } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useIntl } from 'react-intl';
import { notify } from '../../components/toaster';
import type { MessageId } from '../../i18n/messages';
import { useAppActors } from '../actors/actors-context';

/** A modal alert dialog; without `onDismiss` only its buttons close it (no Escape, no outside click). */
function AlertModal(props: {
  open: boolean;
  title: MessageId;
  body: MessageId;
  onDismiss?: () => void;
  actions: { label: MessageId; variant?: 'outline'; onClick: () => void }[];
}) {
  const intl = useIntl();
  const { onDismiss } = props;
  return (
    <Dialog.Root
      role="alertdialog"
      open={props.open}
      closeOnEscape={Boolean(onDismiss)}
      closeOnInteractOutside={Boolean(onDismiss)}
      onOpenChange={(e) => {
        if (!e.open) onDismiss?.();
      }}
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{intl.formatMessage({ id: props.title })}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>{intl.formatMessage({ id: props.body })}</Dialog.Body>
            <Dialog.Footer>
              {props.actions.map((action) => (
                <Button key={action.label} variant={action.variant} onClick={action.onClick}>
                  {intl.formatMessage({ id: action.label })}
                </Button>
              ))}
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/**
 * What the auth actor asks the user (docs/domain.md §15): the 'Confirm logout' modal, the non-closable
 * 'login expired' modal of an overstep tab, the 1.5 s expiry message.
 */
export function SessionDialogs() {
  const intl = useIntl();
  const { auth } = useAppActors();
  const confirming = useSelector(auth, (s) => s.matches({ signedIn: 'confirmingLogout' }));
  const sessionExpired = useSelector(auth, (s) => s.matches('sessionExpired'));
  const expiring = useSelector(auth, (s) => s.matches('expiring'));

  useEffect(() => {
    if (expiring) notify('error', intl.formatMessage({ id: 'http.loginExpired' }), 1500);
  }, [expiring, intl]);

  return (
    <>
      <AlertModal
        open={confirming}
        title="session.confirmLogoutTitle"
        body="session.confirmLogoutBody"
        onDismiss={() => auth.send({ type: 'STAY' })}
        actions={[
          { label: 'session.stay', variant: 'outline', onClick: () => auth.send({ type: 'STAY' }) },
          { label: 'session.relogin', onClick: () => auth.send({ type: 'RELOGIN' }) },
        ]}
      />
      <AlertModal
        open={sessionExpired}
        title="session.expiredTitle"
        body="session.expiredBody"
        actions={[{ label: 'session.confirm', onClick: () => auth.send({ type: 'CONFIRM' }) }]}
      />
    </>
  );
}
