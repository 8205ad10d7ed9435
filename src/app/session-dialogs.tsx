import { Button, Dialog, Portal } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useIntl } from 'react-intl';
import { notify, toaster } from '../components/toaster';
import { useAppActors } from './actors-context';

const MENU_NOTICE_ID = 'menu-load';

/**
 * What the auth and menu actors ask the user (spec §8): the 'Confirm logout' modal, the
 * non-closable 'login expired' modal of an overstep tab, the 1.5 s expiry message, menu notices.
 */
export function SessionDialogs() {
  const intl = useIntl();
  const { auth, menu } = useAppActors();
  const confirming = useSelector(auth, (s) => s.matches({ signedIn: 'confirmingLogout' }));
  const sessionExpired = useSelector(auth, (s) => s.matches('sessionExpired'));
  const expiring = useSelector(auth, (s) => s.matches('expiring'));
  const menuState = useSelector(menu, (s) =>
    s.hasTag('menuLoading') ? 'loading' : String(s.value),
  );

  useEffect(() => {
    if (expiring) notify('error', intl.formatMessage({ id: 'http.loginExpired' }), 1500);
  }, [expiring, intl]);

  useEffect(() => {
    if (menuState === 'loading') {
      notify('loading', intl.formatMessage({ id: 'menuLoad.loading' }), 0, MENU_NOTICE_ID);
    } else if (menuState === 'loaded' || menuState === 'failed') {
      toaster.dismiss(MENU_NOTICE_ID);
      notify(
        menuState === 'loaded' ? 'success' : 'error',
        intl.formatMessage({ id: menuState === 'loaded' ? 'menuLoad.success' : 'menuLoad.error' }),
      );
    }
  }, [menuState, intl]);

  return (
    <>
      <Dialog.Root
        role="alertdialog"
        open={confirming}
        onOpenChange={(e) => {
          if (!e.open) auth.send({ type: 'STAY' });
        }}
        placement="center"
      >
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner>
            <Dialog.Content>
              <Dialog.Header>
                <Dialog.Title>
                  {intl.formatMessage({ id: 'session.confirmLogoutTitle' })}
                </Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>{intl.formatMessage({ id: 'session.confirmLogoutBody' })}</Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={() => auth.send({ type: 'STAY' })}>
                  {intl.formatMessage({ id: 'session.stay' })}
                </Button>
                <Button onClick={() => auth.send({ type: 'RELOGIN' })}>
                  {intl.formatMessage({ id: 'session.relogin' })}
                </Button>
              </Dialog.Footer>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>

      <Dialog.Root
        role="alertdialog"
        open={sessionExpired}
        closeOnEscape={false}
        closeOnInteractOutside={false}
        placement="center"
      >
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner>
            <Dialog.Content>
              <Dialog.Header>
                <Dialog.Title>{intl.formatMessage({ id: 'session.expiredTitle' })}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>{intl.formatMessage({ id: 'session.expiredBody' })}</Dialog.Body>
              <Dialog.Footer>
                <Button onClick={() => auth.send({ type: 'CONFIRM' })}>
                  {intl.formatMessage({ id: 'session.confirm' })}
                </Button>
              </Dialog.Footer>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>
    </>
  );
}
