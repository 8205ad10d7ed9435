import {
  Alert,
  Box,
  Button,
  CloseButton,
  Drawer,
  HStack,
  Link,
  Portal,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useIntl } from 'react-intl';
import { Link as RouterLink } from 'react-router-dom';
import type { NotificationRow } from '../../api/contract/notifications';
import { useArea } from '../../app/actors/areas';
import { notificationListArea } from '../../app/actors/notification-list';
import { notificationsArea } from '../../app/actors/notifications';
import { LoadFailed } from '../../components/load-failed';
import { LoadingSpinner } from '../../components/loading-spinner';
import type { MessageId } from '../../i18n/messages';
import { lastPage } from '../../machines/list';
import { linkOf } from '../shared/deep-links';

/**
 * The notifications drawer (docs/domain.md §18), loaded on the bell's first click: the signed-in
 * user's notifications, newest first, all or only the unread, each a link to what it is about
 * (following it marks it read), and "Mark all as read". A login-as session looks only.
 */
export default function NotificationDrawer(props: { open: boolean; onClose: () => void }) {
  const { open, onClose } = props;
  const intl = useIntl();
  const t = (id: MessageId, values?: Record<string, string | number>) =>
    intl.formatMessage({ id }, values);
  const { bell } = useArea(notificationsArea);
  const { list } = useArea(notificationListArea);
  const canMark = useSelector(bell, (s) => s.context.canMark);
  const unread = useSelector(bell, (s) => s.context.count ?? 0);
  const marking = useSelector(bell, (s) => s.hasTag('marking'));
  const markFailed = useSelector(bell, (s) => s.context.markError !== null);
  const rows = useSelector(list, (s) => s.context.rows);
  const total = useSelector(list, (s) => s.context.total);
  const query = useSelector(list, (s) => s.context.query);
  const loading = useSelector(list, (s) => s.hasTag('loading'));
  const failed = useSelector(list, (s) => s.matches('failed'));
  const onlyUnread = query.filters.unread;
  const pages = lastPage(total, query.limit);

  // Each opening shows the list as it is now.
  useEffect(() => {
    if (!open) return;
    list.send({ type: 'RELOAD' });
    bell.send({ type: 'REFRESH' });
  }, [open, list, bell]);

  const follow = (row: NotificationRow) => {
    if (row.read_at === null) bell.send({ type: 'MARK_READ', ids: [row.id] });
    onClose();
  };

  return (
    <Drawer.Root
      open={open}
      placement="end"
      onOpenChange={(e) => {
        if (!e.open) onClose();
      }}
    >
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content width="380px" maxWidth="100vw" data-testid="notification-drawer">
            <Drawer.Header>
              <Drawer.Title>{t('notifications.title')}</Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>
              <Stack gap="3">
                <HStack justify="space-between" gap="2" wrap="wrap">
                  <HStack gap="1" role="group" aria-label={t('notifications.show')}>
                    {[false, true].map((value) => (
                      <Button
                        key={String(value)}
                        size="xs"
                        variant={onlyUnread === value ? 'solid' : 'outline'}
                        aria-pressed={onlyUnread === value}
                        onClick={() =>
                          list.send({ type: 'SET_FILTERS', filters: { unread: value } })
                        }
                      >
                        {t(value ? 'notifications.unreadOnly' : 'notifications.all')}
                      </Button>
                    ))}
                  </HStack>
                  {canMark && (
                    <Button
                      size="xs"
                      variant="ghost"
                      disabled={unread === 0 || marking}
                      onClick={() => bell.send({ type: 'MARK_ALL_READ' })}
                    >
                      {t('notifications.markAllRead')}
                    </Button>
                  )}
                </HStack>
                {!canMark && (
                  <Text fontSize="sm" color="fg.muted">
                    {t('notifications.lookOnly')}
                  </Text>
                )}
                {markFailed && (
                  <Alert.Root status="error" size="sm">
                    <Alert.Indicator />
                    <Alert.Title>{t('notifications.markFailed')}</Alert.Title>
                  </Alert.Root>
                )}
                {failed ? (
                  <LoadFailed onRetry={() => list.send({ type: 'RELOAD' })} />
                ) : loading && rows.length === 0 ? (
                  <LoadingSpinner label={t('notifications.loading')} alignSelf="center" />
                ) : rows.length === 0 ? (
                  <Text color="fg.muted" textAlign="center" paddingY="6">
                    {t(onlyUnread ? 'notifications.emptyUnread' : 'notifications.empty')}
                  </Text>
                ) : (
                  <Box
                    as="ul"
                    listStyleType="none"
                    aria-busy={loading}
                    aria-label={t('notifications.title')}
                  >
                    {rows.map((row) => (
                      <Box
                        as="li"
                        key={row.id}
                        paddingY="2"
                        borderBottomWidth="1px"
                        data-unread={row.read_at === null || undefined}
                      >
                        <HStack align="start" gap="2">
                          <Box
                            flexShrink={0}
                            marginTop="1.5"
                            boxSize="2"
                            borderRadius="full"
                            bg={row.read_at === null ? 'blue.solid' : 'transparent'}
                            aria-hidden="true"
                          />
                          <Stack gap="0" minWidth="0">
                            <Link asChild fontWeight={row.read_at === null ? 'semibold' : 'normal'}>
                              <RouterLink to={linkOf(row)} onClick={() => follow(row)}>
                                {row.read_at === null && (
                                  <Box as="span" srOnly>
                                    {`${t('notifications.unread')}: `}
                                  </Box>
                                )}
                                {row.text}
                              </RouterLink>
                            </Link>
                            <Text fontSize="xs" color="fg.muted">
                              {intl.formatDate(row.created_at, {
                                dateStyle: 'medium',
                                timeStyle: 'short',
                              })}
                            </Text>
                          </Stack>
                        </HStack>
                      </Box>
                    ))}
                  </Box>
                )}
                {pages > 1 && (
                  <HStack justify="space-between">
                    <Button
                      size="xs"
                      variant="outline"
                      disabled={query.page <= 1}
                      onClick={() => list.send({ type: 'SET_PAGE', page: query.page - 1 })}
                    >
                      {t('notifications.previous')}
                    </Button>
                    <Text fontSize="sm">
                      {t('notifications.page', { page: query.page, pages })}
                    </Text>
                    <Button
                      size="xs"
                      variant="outline"
                      disabled={query.page >= pages}
                      onClick={() => list.send({ type: 'SET_PAGE', page: query.page + 1 })}
                    >
                      {t('notifications.next')}
                    </Button>
                  </HStack>
                )}
              </Stack>
            </Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('form.close')} />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}
