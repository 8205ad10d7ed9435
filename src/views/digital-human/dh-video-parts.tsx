import {
  Badge,
  Box,
  Button,
  chakra,
  CloseButton,
  Dialog,
  Input,
  Portal,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import {
  dhVideoRenameBody,
  type DhVideo,
  type DhVideoStatus,
} from '../../api/contract/digital-human';
import { useArea } from '../../app/actors/areas';
import { dhTemplatesArea } from '../../app/actors/digital-human-templates';
import { canDeleteDhVideo, type DhVideosActors } from '../../app/actors/digital-human-videos';
import { formatDateTime } from '../../components/dates';
import { FormField } from '../../components/form-field';
import { FailureAlert } from '../../components/step-dialog';
import { formatText } from '../../i18n/intl';
import type { MessageId } from '../../i18n/messages';
import { useDialogState } from '../shared/use-dialog-state';
import { formatDhTime } from '../shared/dh-time';
import { wholePercent, formatSeconds } from '../shared/format';
import { PublishLink } from '../shared/publish-link';
import type { T } from '../shared/use-t';
import { CallDialog, ConfirmRowDialog, TextFormDialog, useCall } from '../shared/call-dialog';
import { PercentBar } from '../../components/percent-bar';

export const DH_STATUS_LABEL: Record<DhVideoStatus, MessageId> = {
  queued: 'dhVideos.statusQueued',
  creating: 'dhVideos.statusCreating',
  done: 'dhVideos.statusDone',
  failed: 'dhVideos.statusFailed',
};

/** Waiting grey, under way blue, done green, failed red. */
const DH_STATUS_PALETTE: Record<DhVideoStatus, string> = {
  queued: 'gray',
  creating: 'blue',
  done: 'green',
  failed: 'red',
};

/** A video's status tag, and the reason under it when it failed. */
export function DhStatus(props: { video: DhVideo; t: T }) {
  const { video, t } = props;
  return (
    <Stack gap="1" alignItems="flex-start">
      <Badge colorPalette={DH_STATUS_PALETTE[video.status]} data-testid="dh-status">
        {t(DH_STATUS_LABEL[video.status])}
      </Badge>
      {video.status === 'failed' && video.reason && (
        <Text fontSize="xs" color="fg.error" data-testid="dh-reason">
          {video.reason}
        </Text>
      )}
      {video.demonstration && video.status === 'done' && <DemoBadge t={t} />}
    </Stack>
  );
}

/** The embedded provider's results are demonstration output, not lip-sync. */
export function DemoBadge(props: { t: T }) {
  return (
    <Badge colorPalette="orange" variant="outline" title={props.t('dhVideos.demonstrationHint')}>
      {props.t('dhVideos.demonstration')}
    </Badge>
  );
}

/** Queue position while queued, a progress bar while creating, the length once done. */
export function DhProgress(props: { video: DhVideo; t: T }) {
  const { video, t } = props;
  if (video.status === 'queued') {
    return (
      <Text fontSize="sm" data-testid="dh-progress">
        {video.queue_position !== null
          ? t('dhVideos.queuePosition', { position: video.queue_position })
          : t('dhVideos.inQueue')}
      </Text>
    );
  }
  if (video.status === 'creating') {
    const percent = wholePercent(video.progress);
    return (
      <Stack gap="1" minWidth="28">
        <PercentBar label={t('dhVideos.progressOf', { name: video.name })} percent={percent} />
        <Text fontSize="xs" color="fg.muted" data-testid="dh-progress">
          {t('dhVideos.percent', { percent })}
        </Text>
      </Stack>
    );
  }
  if (video.status === 'done' && video.duration !== null) {
    return (
      <Text fontSize="sm" data-testid="dh-progress">
        {t('dhVideos.seconds', { seconds: formatSeconds(video.duration) })}
      </Text>
    );
  }
  return null;
}

/** Opens the area's rename dialog for a video (a row's action, the player's). */
export function RenameButton(props: {
  area: DhVideosActors;
  video: DhVideo;
  t: T;
  size?: 'xs' | 'md';
}) {
  const { area, video, t } = props;
  return (
    <Button
      size={props.size ?? 'xs'}
      variant="ghost"
      aria-label={t('dhVideos.renameOf', { name: video.name })}
      onClick={() => area.rename.send({ type: 'OPEN', target: video })}
    >
      {t('dhVideos.rename')}
    </Button>
  );
}

/** Opens the area's delete confirmation for a finished video; nothing for one being made. */
export function DeleteButton(props: {
  area: DhVideosActors;
  video: DhVideo;
  t: T;
  size?: 'xs' | 'md';
}) {
  const { area, video, t } = props;
  if (!canDeleteDhVideo(video)) return null;
  return (
    <Button
      size={props.size ?? 'xs'}
      variant="ghost"
      colorPalette="red"
      aria-label={t('dhVideos.deleteOf', { name: video.name })}
      onClick={() => area.remove.send({ type: 'OPEN', target: video })}
    >
      {t('dhVideos.delete')}
    </Button>
  );
}

/**
 * "Save as template": a template of one's own with a done video's frame, layout, background and
 * music, its output the demo (the templates area's dialog; docs/domain.md §10 "Video templates").
 */
export function SaveAsTemplateButton(props: { video: DhVideo; t: T; size?: 'xs' | 'md' }) {
  const { video, t } = props;
  const templates = useArea(dhTemplatesArea);
  if (video.status !== 'done') return null;
  return (
    <Button
      size={props.size ?? 'xs'}
      variant="ghost"
      aria-label={t('dhVideos.saveAsTemplateOf', { name: video.name })}
      onClick={() => templates.fromVideo.send({ type: 'OPEN', target: video })}
    >
      {t('dhVideos.saveAsTemplate')}
    </Button>
  );
}

/** A link that downloads a done video (the signed attachment URL). */
export function DownloadLink(props: { video: DhVideo; t: T; size?: 'xs' | 'sm' }) {
  const { video, t } = props;
  if (!video.download_url) return null;
  return (
    <Button asChild size={props.size ?? 'xs'} variant="ghost">
      <a
        href={video.download_url}
        download
        aria-label={t('dhVideos.downloadOf', { name: video.name })}
      >
        {t('dhVideos.download')}
      </a>
    </Button>
  );
}

/** "Publish": a done video in a new release plan (docs/domain.md §20). */
export function DhPublishLink(props: { video: DhVideo; size?: 'xs' | 'sm' }) {
  const { video } = props;
  if (video.status !== 'done' || !video.download_url) return null;
  return (
    <PublishLink size={props.size} name={video.name} refs={[{ type: 'dh_video', id: video.id }]} />
  );
}

/**
 * The open video (the area's detail actor): the player once done, else its status, queue
 * position or progress (live: the watch refreshes it), reason and the figures; it can be renamed
 * (the player shows the new name) or, once finished, deleted (the player closes) from here. The
 * page renders `DhVideoDialogs` beside it.
 */
export function DhPlayerDialog(props: { area: DhVideosActors; t: T }) {
  const { area, t } = props;
  const intl = useIntl();
  const detail = area.detail;
  const open = useSelector(detail, (s) => s.hasTag('open'));
  const data = useSelector(detail, (s) => s.context.data);
  const error = useSelector(detail, (s) => s.context.error);
  const loading = useSelector(detail, (s) => s.hasTag('loading'));
  const close = () => detail.send({ type: 'CLOSE' });
  return (
    <Dialog.Root
      open={open}
      lazyMount
      unmountOnExit
      onOpenChange={(e) => {
        if (!e.open) close();
      }}
      placement="center"
      size="lg"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="dh-player">
            <Dialog.Header>
              <Dialog.Title>{data ? data.name : t('dhVideos.player')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {error ? (
                <FailureAlert error={error} />
              ) : !data ? (
                <Text role="status">{loading ? t('dhVideos.loading') : ''}</Text>
              ) : (
                <Stack gap="3">
                  {data.status === 'done' && data.url ? (
                    <chakra.video
                      controls
                      src={data.url}
                      poster={data.cover ?? undefined}
                      width="100%"
                      maxHeight="60vh"
                      bg="black"
                      aria-label={t('dhVideos.playerOf', { name: data.name })}
                    />
                  ) : (
                    <Stack gap="2" aria-live="polite">
                      <DhStatus video={data} t={t} />
                      <DhProgress video={data} t={t} />
                    </Stack>
                  )}
                  {data.demonstration && (
                    <Text fontSize="sm" color="fg.muted">
                      {t('dhVideos.demonstrationHint')}
                    </Text>
                  )}
                  <chakra.dl
                    display="grid"
                    gridTemplateColumns="auto 1fr"
                    columnGap="4"
                    rowGap="1"
                    fontSize="sm"
                  >
                    {(
                      [
                        [t('dhVideos.avatar'), data.avatar_name],
                        [t('dhVideos.voice'), data.voice_name],
                        [
                          t('dhVideos.estimated'),
                          t('dhVideos.seconds', { seconds: data.estimated_seconds }),
                        ],
                        [
                          t('dhVideos.charged'),
                          t('dhVideos.chargedFigures', {
                            frozen: formatDhTime(t, data.frozen),
                            settled: formatDhTime(t, data.settled),
                            refunded: formatDhTime(t, data.refunded),
                          }),
                        ],
                        [t('dhVideos.submitted'), formatDateTime(data.created_at)],
                        [
                          t('dhVideos.finished'),
                          data.finished_at ? formatDateTime(data.finished_at) : '—',
                        ],
                      ] as [string, string][]
                    ).map(([label, value]) => (
                      <Box key={label} display="contents">
                        <chakra.dt color="fg.muted">{label}</chakra.dt>
                        <chakra.dd>{value}</chakra.dd>
                      </Box>
                    ))}
                  </chakra.dl>
                  {data.reason_detail && (
                    <Text fontSize="xs" color="fg.muted">
                      {formatText(intl, data.reason_detail)}
                    </Text>
                  )}
                </Stack>
              )}
            </Dialog.Body>
            <Dialog.Footer>
              {data && <DownloadLink video={data} t={t} size="sm" />}
              {data && <RenameButton area={area} video={data} t={t} size="md" />}
              {data && <SaveAsTemplateButton video={data} t={t} size="md" />}
              {data && <DeleteButton area={area} video={data} t={t} size="md" />}
              <Button variant="outline" onClick={close}>
                {t('form.close')}
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('form.close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/** Rename: one name field checked with the contract's rule, then sent. */
function RenameDialog(props: { area: DhVideosActors; t: T }) {
  const { area, t } = props;
  const state = useDialogState(area.rename);
  if (!state.open || !state.target) return null;
  return <RenameForm key={state.target.id} video={state.target} area={area} t={t} />;
}

function RenameForm(props: { video: DhVideo; area: DhVideosActors; t: T }) {
  const { video, area, t } = props;
  const intl = useIntl();
  const call = useCall(area.rename);
  const [name, setName] = useState(video.name);
  const [wrong, setWrong] = useState<string | null>(null);
  return (
    <CallDialog
      call={call}
      title={t('dhVideos.renameTitle', { name: video.name })}
      submitLabel={t('dhVideos.rename')}
      onSubmit={() => {
        const checked = dhVideoRenameBody.safeParse({ id: video.id, name });
        if (!checked.success) {
          setWrong(checked.error.issues[0]?.message ?? 'validation.invalid');
          return;
        }
        setWrong(null);
        call.submit({ id: video.id, name: checked.data.name });
      }}
    >
      <FormField label={t('dhVideos.name')} required error={wrong ? formatText(intl, wrong) : null}>
        <Input value={name} autoComplete="off" onChange={(e) => setName(e.currentTarget.value)} />
      </FormField>
    </CallDialog>
  );
}

/** The rename, delete, resubmit and "save as template" dialogs of the area. */
export function DhVideoDialogs(props: { area: DhVideosActors; t: T }) {
  const { area, t } = props;
  const templates = useArea(dhTemplatesArea);
  return (
    <>
      <TextFormDialog
        actor={templates.fromVideo}
        title={(v) => t('dhVideos.saveAsTemplateTitle', { name: v?.name ?? '' })}
        label={t('dhVideos.templateName')}
        helper={t('dhVideos.saveAsTemplateHint')}
        submitLabel={t('dhVideos.saveAsTemplate')}
        maxLength={30}
      />
      <RenameDialog area={area} t={t} />
      <ConfirmRowDialog
        actor={area.remove}
        title={(v) => t('dhVideos.deleteTitle', { name: v.name })}
        what={() => t('dhVideos.deleteWhat')}
        submitLabel={t('dhVideos.delete')}
        payload={(v) => ({ ids: [v.id] })}
      />
      <ConfirmRowDialog
        actor={area.resubmit}
        title={(v) => t('dhVideos.resubmitTitle', { name: v.name })}
        what={() => t('dhVideos.resubmitWhat')}
        submitLabel={t('dhVideos.resubmit')}
        payload={(v) => ({ id: v.id })}
      />
    </>
  );
}
