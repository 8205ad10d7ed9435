import { Alert, Button } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { waitFor } from 'xstate';
import { useAppActors } from '../actors/actors-context';

/** An overstep tab says whose console it is, with a button that ends the overstep session. */
export function OverstepBanner() {
  const intl = useIntl();
  const { auth } = useAppActors();
  const user = useSelector(auth, (s) => s.context.user);
  if (!user?.overstep_by) return null;
  return (
    <Alert.Root status="warning" borderRadius="0" role="status">
      <Alert.Indicator />
      <Alert.Title>
        {intl.formatMessage(
          { id: 'overstep.banner' },
          { merchant: user.nickname || user.username, by: user.overstep_by.username },
        )}
      </Alert.Title>
      <Button
        size="xs"
        marginStart="auto"
        variant="outline"
        onClick={() => {
          // End the overstep session, then close its tab (a "login as" tab is script-opened;
          // where the browser refuses, the tab simply lands on the login page).
          auth.send({ type: 'LOGOUT' });
          void waitFor(auth, (s) => s.matches('signedOut')).then(() => window.close());
        }}
      >
        {intl.formatMessage({ id: 'overstep.end' })}
      </Button>
    </Alert.Root>
  );
}
