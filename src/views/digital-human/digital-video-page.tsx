import { Button, HStack, Image, Stack } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import {
  DH_VIDEO_STATUSES,
  type DhVideo,
  type DhVideoStatus,
} from '../../api/contract/digital-human';
import { useArea } from '../../app/actors/areas';
import {
  canResubmitDhVideo,
  dhVideosArea,
  NO_DH_VIDEO_FILTERS,
  type DhVideoFilters,
} from '../../app/actors/digital-human-videos';
import { useListActor } from '../../app/hooks/use-list';
import { DataTable, type Column } from '../../components/data-table';
import { FilterBar, FilterSelect, FilterText } from '../../components/filter-bar';
import { formatDateTime } from '../../components/dates';
import { Page } from '../../components/page';
import { VIDEO_PARAM, useDeepLink } from '../shared/deep-links';
import { useT, type T } from '../shared/use-t';
import {
  DH_STATUS_LABEL,
  DeleteButton,
  DhPlayerDialog,
  DhProgress,
  DhStatus,
  DhVideoDialogs,
  DhPublishLink,
  DownloadLink,
  RenameButton,
  SaveAsTemplateButton,
} from './dh-video-parts';

function Filters(props: {
  applied: DhVideoFilters;
  folders: readonly { id: number; name: string }[];
  onApply: (filters: DhVideoFilters) => void;
  t: T;
}) {
  const { t } = props;
  const [draft, setDraft] = useState<DhVideoFilters>(props.applied);
  return (
    <FilterBar
      label={t('dhVideos.filters')}
      onApply={() => props.onApply(draft)}
      onReset={() => {
        setDraft(NO_DH_VIDEO_FILTERS);
        props.onApply(NO_DH_VIDEO_FILTERS);
      }}
    >
      <FilterSelect
        label={t('dhVideos.status')}
        value={draft.status}
        onChange={(status) => setDraft((d) => ({ ...d, status: status as DhVideoStatus | '' }))}
        options={DH_VIDEO_STATUSES.map((s) => ({ value: s, label: t(DH_STATUS_LABEL[s]) }))}
      />
      <FilterSelect
        label={t('dhVideos.folder')}
        value={draft.folder === null ? '' : String(draft.folder)}
        onChange={(v) => setDraft((d) => ({ ...d, folder: v ? Number(v) : null }))}
        options={props.folders.map((f) => ({ value: String(f.id), label: f.name }))}
      />
      <FilterText
        label={t('dhVideos.keyword')}
        value={draft.keyword}
        onChange={(keyword) => setDraft((d) => ({ ...d, keyword }))}
      />
    </FilterBar>
  );
}

/**
 * /digital-human/digital-video (partner, merchant): the caller's digital-human videos with the
 * columns of docs/domain.md §10 (ID, name, cover, avatar, client, status with its reason, submitted,
 * finished), the queue position and progress moving by themselves (the area's watch), and the
 * actions: play (the player dialog), download, rename, save as template (a done video), delete,
 * resubmit. "Publish" waits for matrix distribution (docs/decisions.md). The way to a new video
 * and to my creations.
 */
export default function DigitalVideoPage() {
  const t = useT();
  const area = useArea(dhVideosArea);
  // A notification's link (`?video=7`) opens the video (docs/domain.md §18).
  useDeepLink(VIDEO_PARAM, (id) => area.detail.send({ type: 'OPEN', id }));
  const list = useListActor(area.videos);
  const known = useSelector(area.watch, (s) => s.context.tasks);
  const rows = useMemo(() => list.rows.map((r) => known[r.id] ?? r), [list.rows, known]);
  const folders = useSelector(area.folders, (s) => s.context.data?.list ?? []);
  const applied = list.query.filters;

  const columns = useMemo<Column<DhVideo>[]>(
    () => [
      { key: 'id', header: t('dhVideos.id'), align: 'end', cell: (v) => v.id },
      { key: 'name', header: t('dhVideos.name'), cell: (v) => v.name },
      {
        key: 'cover',
        header: t('dhVideos.cover'),
        cell: (v) =>
          v.cover ? (
            <Image
              src={v.cover}
              alt={t('dhVideos.coverOf', { name: v.name })}
              height="12"
              width="auto"
              borderRadius="sm"
            />
          ) : (
            '—'
          ),
      },
      { key: 'avatar', header: t('dhVideos.avatar'), cell: (v) => v.avatar_name },
      { key: 'client', header: t('dhVideos.client'), cell: (v) => v.client },
      { key: 'status', header: t('dhVideos.status'), cell: (v) => <DhStatus video={v} t={t} /> },
      {
        key: 'progress',
        header: t('dhVideos.progress'),
        cell: (v) => <DhProgress video={v} t={t} />,
      },
      {
        key: 'submitted',
        header: t('dhVideos.submitted'),
        cell: (v) => formatDateTime(v.created_at),
      },
      {
        key: 'finished',
        header: t('dhVideos.finished'),
        cell: (v) => (v.finished_at ? formatDateTime(v.finished_at) : '—'),
      },
      {
        key: 'actions',
        header: t('dhVideos.actions'),
        pinned: 'end',
        cell: (v) => (
          <HStack gap="1">
            <Button
              size="xs"
              variant="ghost"
              aria-label={t('dhVideos.playOf', { name: v.name })}
              onClick={() => area.detail.send({ type: 'OPEN', id: v.id })}
            >
              {t(v.status === 'done' ? 'dhVideos.play' : 'dhVideos.detail')}
            </Button>
            <DownloadLink video={v} t={t} />
            <DhPublishLink video={v} />
            <RenameButton area={area} video={v} t={t} />
            <SaveAsTemplateButton video={v} t={t} />
            {canResubmitDhVideo(v) && (
              <Button
                size="xs"
                variant="ghost"
                aria-label={t('dhVideos.resubmitOf', { name: v.name })}
                onClick={() => area.resubmit.send({ type: 'OPEN', target: v })}
              >
                {t('dhVideos.resubmit')}
              </Button>
            )}
            <DeleteButton area={area} video={v} t={t} />
          </HStack>
        ),
      },
    ],
    [t, area],
  );

  return (
    <Page
      title={t('route.digitalVideo')}
      actions={
        <HStack gap="2">
          <Button asChild size="sm" variant="outline">
            <Link to="/digital-human/my-creation">{t('route.myCreation')}</Link>
          </Button>
          <Button asChild size="sm">
            <Link to="/digital-human/create-video">{t('dhVideos.create')}</Link>
          </Button>
        </HStack>
      }
    >
      <Stack gap="4">
        <Filters
          key={`${applied.status}:${applied.folder}:${applied.keyword}`}
          applied={applied}
          folders={folders}
          onApply={list.setFilters}
          t={t}
        />
        <DataTable
          label={t('dhVideos.list')}
          testId="dh-videos"
          columns={columns}
          rowKey={(r) => r.id}
          emptyText={t('dhVideos.empty')}
          {...list.table}
          rows={rows}
        />
      </Stack>
      <DhVideoDialogs area={area} t={t} />
      <DhPlayerDialog area={area} t={t} />
    </Page>
  );
}
