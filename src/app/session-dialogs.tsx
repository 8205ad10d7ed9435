import { Button, Dialog, Portal } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useIntl } from 'react-intl';
import { notify, toaster } from '../components/toaster';
import { currentIntl } from '../i18n/intl';
import type { MessageId } from '../i18n/messages';
import { menuNotice, type MenuNotice, type MenuSnapshot } from '../machines/menu';
import { useAppActors } from './actors-context';

const MENU_NOTICE_ID = 'menu-load';

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
 * The menu notices of spec §4 (loading, then success or error). Mounted with the providers, not
 * under the router: with "menu from server" on, the first load runs in the route guard before
 * the router renders anything. Raised from the actor's subscription, not from a React effect:
 * the toaster flushes synchronously, and a dismiss sent while React is committing is lost (the
 * loading notice then stayed for ever).
 */
export function MenuNotices() {
  const { menu } = useAppActors();
  useEffect(() => {
    let shown: MenuNotice['type'] | null = null;
    const show = (snapshot: MenuSnapshot) => {
      const notice = menuNotice(snapshot);
      if ((notice?.type ?? null) === shown) return;
      shown = notice?.type ?? null;
      if (!notice) return;
      const text = currentIntl().formatMessage({ id: notice.messageId });
      if (notice.type === 'loading') {
        notify('loading', text, 0, MENU_NOTICE_ID);
      } else {
        toaster.dismiss(MENU_NOTICE_ID);
        notify(notice.type, text);
      }
    };
    // A load the route guard started before this mounted.
    if (menu.getSnapshot().hasTag('menuLoading')) queueMicrotask(() => show(menu.getSnapshot()));
    const subscription = menu.subscribe(show);
    return () => subscription.unsubscribe();
  }, [menu]);
  return null;
}

/**
 * What the auth actor asks the user (spec §8): the 'Confirm logout' modal, the non-closable
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
