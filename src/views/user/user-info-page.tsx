import type { MessageId } from '../../i18n/messages';
import { Avatar, Badge, Card, DataList, HStack, Stack, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { roleOf } from '../../api/contract/roles';
import { useAppActors } from '../../app/actors/actors-context';
import { useMoneyName } from '../../app/hooks/use-money-name';
import { formatDateTime } from '../../components/dates';
import { Page } from '../../components/page';

/** /user/info: who the current user is. */
export default function UserInfoPage() {
  const intl = useIntl();
  const moneyName = useMoneyName();
  const { auth } = useAppActors();
  const user = useSelector(auth, (s) => s.context.user);
  const t = (id: MessageId) => intl.formatMessage({ id });
  if (!user) return null;
  const role = roleOf(user.user_type);
  const rows: [string, string][] = [
    [t('user.accountId'), String(user.accountId)],
    [t('form.account'), user.username],
    [t('user.name'), user.name || '—'],
    [t('user.nickname'), user.nickname || '—'],
    [t('form.mobile'), user.mobile || '—'],
    [t('user.email'), user.email || '—'],
    [t('user.role'), t(`role.${role}`)],
    [t('user.servicePrefix'), user.service_prefix_no || '—'],
    [intl.formatMessage({ id: 'stats.money' }, { moneyName }), user.money],
    [
      t('user.registrationDate'),
      // The API sends an ISO instant; the console shows times as `YYYY-MM-DD HH:mm` everywhere.
      user.registrationDate ? formatDateTime(Date.parse(user.registrationDate)) : '—',
    ],
    [t('user.introduction'), user.introduction || '—'],
  ];
  return (
    <Page title={t('route.userInfo')}>
      <Card.Root variant="outline">
        <Card.Body>
          <Stack gap="6">
            <HStack gap="4">
              <Avatar.Root size="xl">
                <Avatar.Fallback name={user.nickname || user.username} />
                {user.avatar && <Avatar.Image src={user.avatar} alt="" />}
              </Avatar.Root>
              <Stack gap="1">
                <Text fontSize="xl" fontWeight="semibold">
                  {user.nickname || user.username}
                </Text>
                <Badge colorPalette="brand" width="fit-content">
                  {t(`role.${role}`)}
                </Badge>
              </Stack>
            </HStack>
            <DataList.Root orientation="horizontal">
              {rows.map(([label, value]) => (
                <DataList.Item key={label}>
                  <DataList.ItemLabel>{label}</DataList.ItemLabel>
                  <DataList.ItemValue>{value}</DataList.ItemValue>
                </DataList.Item>
              ))}
            </DataList.Root>
          </Stack>
        </Card.Body>
      </Card.Root>
    </Page>
  );
}
