import { Box, IconButton } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { lazy, Suspense, useState } from 'react';
import { useIntl } from 'react-intl';
import { Icon } from '../../components/icons';
import { useArea } from '../actors/areas';
import { notificationsArea } from '../actors/notifications';
import { withLaterTheme } from '../routes/lazy';

// The drawer and its list load on the first click: the navbar carries only the bell.
const NotificationDrawer = lazy(
  withLaterTheme(() => import('../../views/notifications/notification-drawer')),
);

/** The unread count shown on the bell (and in the title) beyond which it says "99+". */
export const shownCount = (count: number) => (count > 99 ? '99+' : String(count));

/**
 * The navbar's bell (docs/domain.md §18): the unread count, kept live by the notifications area's
 * actor, as a badge and in the button's name; a click opens the drawer with the list.
 */
export function NotificationBell() {
  const intl = useIntl();
  const { bell } = useArea(notificationsArea);
  const count = useSelector(bell, (s) => s.context.count ?? 0);
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  return (
    <>
      <IconButton
        variant="ghost"
        size="sm"
        position="relative"
        aria-label={intl.formatMessage({ id: 'notifications.bell' }, { count })}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
      >
        <Icon name="bell" />
        {count > 0 && (
          <Box
            as="span"
            aria-hidden="true"
            data-testid="notification-count"
            position="absolute"
            top="0"
            insetEnd="0"
            minWidth="4"
            height="4"
            paddingX="1"
            borderRadius="full"
            bg="red.solid"
            color="white"
            fontSize="2xs"
            lineHeight="4"
            textAlign="center"
          >
            {shownCount(count)}
          </Box>
        )}
      </IconButton>
      {wanted && (
        <Suspense>
          <NotificationDrawer open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
