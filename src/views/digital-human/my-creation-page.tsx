import { Badge, Box, Button, HStack, Image, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { Link } from 'react-router-dom';
import { useArea } from '../../app/actors/areas';
import { dhVideosArea } from '../../app/actors/digital-human-videos';
import { useListActor } from '../../app/hooks/use-list';
import { formatDateTime } from '../../components/dates';
import { Page } from '../../components/page';
import { GridPager, GridSkeleton } from '../shared/resource-grid';
import { formatSeconds } from '../shared/format';
import { useT } from '../shared/use-t';
import {
  DemoBadge,
  DhPlayerDialog,
  DhPublishLink,
  DhVideoDialogs,
  DownloadLink,
} from './dh-video-parts';

/**
 * /digital-human/my-creation (hidden; highlights the video menu): the caller's finished
 * digital-human videos as a gallery, by folder (the resource groups): play (the player dialog)
 * and download.
 */
export default function MyCreationPage() {
  const t = useT();
  const area = useArea(dhVideosArea);
  const list = useListActor(area.gallery);
  const folders = useSelector(area.folders, (s) => s.context.data?.list ?? []);
  const folder = list.query.filters.folder;
  const choose = (id: number | null) => list.setFilters({ ...list.query.filters, folder: id });
  const tabs: { id: number | null; name: string }[] = [
    { id: null, name: t('myCreation.allFolders') },
    ...folders,
  ];
  return (
    <Page
      title={t('route.myCreation')}
      actions={
        <Button asChild size="sm" variant="outline">
          <Link to="/digital-human/digital-video">{t('route.digitalVideo')}</Link>
        </Button>
      }
    >
      <Stack gap="4">
        <HStack as="nav" aria-label={t('myCreation.folders')} gap="2" flexWrap="wrap">
          {tabs.map((f) => (
            <Button
              key={f.id ?? 'all'}
              size="sm"
              variant={folder === f.id ? 'solid' : 'outline'}
              aria-pressed={folder === f.id}
              onClick={() => choose(f.id)}
            >
              {f.name}
            </Button>
          ))}
        </HStack>
        {list.failed ? (
          <Stack gap="2" alignItems="flex-start" role="alert">
            <Text>{t('myCreation.failed')}</Text>
            <Button size="sm" variant="outline" onClick={list.reload}>
              {t('myCreation.retry')}
            </Button>
          </Stack>
        ) : list.loading && list.rows.length === 0 ? (
          <GridSkeleton label={t('dhVideos.loading')} />
        ) : list.rows.length === 0 ? (
          <Text role="status">{t('myCreation.empty')}</Text>
        ) : (
          <Stack gap="3" aria-busy={list.loading}>
            <SimpleGrid
              as="ul"
              aria-label={t('myCreation.gallery')}
              listStyleType="none"
              minChildWidth="48"
              gap="4"
              data-testid="dh-gallery"
            >
              {list.rows.map((v) => (
                <Stack as="li" key={v.id} gap="2" borderWidth="1px" borderRadius="md" padding="2">
                  <Box
                    position="relative"
                    aspectRatio={9 / 16}
                    maxHeight="64"
                    bg="bg.muted"
                    borderRadius="sm"
                    overflow="hidden"
                  >
                    {v.cover && (
                      <Image src={v.cover} alt="" width="100%" height="100%" objectFit="cover" />
                    )}
                    {v.duration !== null && (
                      <Badge position="absolute" insetEnd="1" bottom="1" size="sm">
                        {t('dhVideos.seconds', { seconds: formatSeconds(v.duration) })}
                      </Badge>
                    )}
                  </Box>
                  <Text fontWeight="semibold" truncate title={v.name}>
                    {v.name}
                  </Text>
                  <Text fontSize="xs" color="fg.muted">
                    {v.finished_at ? formatDateTime(v.finished_at) : ''}
                  </Text>
                  {v.demonstration && (
                    <Box>
                      <DemoBadge t={t} />
                    </Box>
                  )}
                  <HStack gap="1">
                    <Button
                      size="xs"
                      aria-label={t('dhVideos.playOf', { name: v.name })}
                      onClick={() => area.detail.send({ type: 'OPEN', id: v.id })}
                    >
                      {t('dhVideos.play')}
                    </Button>
                    <DownloadLink video={v} t={t} />
                    <DhPublishLink video={v} />
                  </HStack>
                </Stack>
              ))}
            </SimpleGrid>
            <GridPager
              label={t('myCreation.gallery')}
              page={list.query.page}
              limit={list.query.limit}
              total={list.total}
              loading={list.loading}
              onPage={(page) => area.gallery.send({ type: 'SET_PAGE', page })}
            />
          </Stack>
        )}
      </Stack>
      <DhPlayerDialog area={area} t={t} />
      <DhVideoDialogs area={area} t={t} />
    </Page>
  );
}
