import { Box, Button, Heading, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { Link as RouterLink } from 'react-router-dom';
import { useAppActors } from '../../app/actors/actors-context';
import { useArea } from '../../app/actors/areas';
import { dashboardArea } from '../../app/actors/dashboard';
import { useLoadActor } from '../../app/hooks/use-load';
import { useMoneyName } from '../../app/hooks/use-money-name';
import { LoadFailed } from '../../components/load-failed';
import { Page } from '../../components/page';
import { StatGrid } from '../../components/stat-grid';
import type { MessageId } from '../../i18n/messages';
import { formatMoney } from '../shared/amounts';
import { formatDhTime } from '../shared/dh-time';

interface StartCard {
  key: string;
  title: MessageId;
  text: MessageId;
  action: MessageId;
  to: string;
}

/** Where each way of making a video starts (the mixed-cut card opens its create form). */
const CARDS: StartCard[] = [
  {
    key: 'mixed',
    title: 'toCreate.mixedTitle',
    text: 'toCreate.mixedText',
    action: 'toCreate.mixedAction',
    to: '/creation/mixed-task?new=1',
  },
  {
    key: 'clip',
    title: 'toCreate.clipTitle',
    text: 'toCreate.clipText',
    action: 'toCreate.clipAction',
    to: '/creation/mixedshear',
  },
  {
    key: 'digital',
    title: 'toCreate.digitalTitle',
    text: 'toCreate.digitalText',
    action: 'toCreate.digitalAction',
    to: '/digital-human/create-video',
  },
];

/**
 * /dashboard/to-create-video (partner, merchant): where making a video starts. A card for each
 * way (mixed-cut, smart clip — not for a user whose show_clip_menu is 0 —, digital-human video)
 * and the caller's balances (the dashboard area's work-bench load, as /dashboard/workBench).
 */
export default function ToCreateVideoPage() {
  const intl = useIntl();
  const t = (id: MessageId, values?: Record<string, string | number>) =>
    intl.formatMessage({ id }, values);
  const moneyName = useMoneyName();
  const showClip = useSelector(useAppActors().auth, (s) => s.context.user?.show_clip_menu !== 0);
  const { data, loading, failed, reload } = useLoadActor(useArea(dashboardArea).workBench, {
    fresh: true,
  });
  const account = data?.account;
  const cards = CARDS.filter((c) => c.key !== 'clip' || showClip);
  return (
    <Page title={t('route.toCreateVideo')}>
      <SimpleGrid columns={{ base: 1, md: cards.length }} gap="4">
        {cards.map((c) => (
          <Box
            key={c.key}
            as="article"
            aria-labelledby={`to-create-${c.key}`}
            borderWidth="1px"
            borderRadius="lg"
            padding="5"
            data-testid={`start-${c.key}`}
          >
            <Stack gap="3" height="full">
              <Heading as="h2" size="md" id={`to-create-${c.key}`}>
                {t(c.title)}
              </Heading>
              <Text color="fg.muted" flex="1">
                {t(c.text)}
              </Text>
              <Button asChild size="sm" alignSelf="flex-start">
                <RouterLink to={c.to}>{t(c.action)}</RouterLink>
              </Button>
            </Stack>
          </Box>
        ))}
      </SimpleGrid>
      <Heading as="h2" size="md">
        {t('workBench.balances')}
      </Heading>
      {failed && <LoadFailed onRetry={reload} />}
      <Skeleton loading={loading}>
        <StatGrid
          stats={[
            {
              testId: 'balance-money',
              label: t('stats.money', { moneyName }),
              value: formatMoney(account?.money ?? '0'),
            },
            {
              testId: 'balance-minutes',
              label: t('stats.digitalManTime'),
              value: formatDhTime(t, account?.digital_man_seconds ?? 0),
            },
            {
              testId: 'balance-voices',
              label: t('stats.voiceClones'),
              value: account?.voice_clone_count ?? 0,
            },
            {
              testId: 'balance-images',
              label: t('stats.imageClones'),
              value: account?.image_clone_count ?? 0,
            },
          ]}
        />
      </Skeleton>
    </Page>
  );
}
