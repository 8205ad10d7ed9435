import {
  Box,
  Button,
  CloseButton,
  Dialog,
  HStack,
  Image,
  Input,
  Portal,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import {
  DH_LIMITS,
  IMAGE_CLONE_TIERS,
  type ImageClone,
  type ImageCloneTier,
} from '../../api/contract/digital-human';
import { useArea } from '../../app/actors/areas';
import {
  canDeleteClone,
  digitalHumanClonesArea,
  type DigitalHumanClonesActors,
} from '../../app/actors/digital-human-clones';
import { useListActor } from '../../app/hooks/use-list';
import { DataTable, type Column } from '../../components/data-table';
import { formatDateTime } from '../../components/dates';
import { FormDialog } from '../../components/form-dialog';
import { FormField } from '../../components/form-field';
import { formatText } from '../../i18n/intl';
import type { MessageId } from '../../i18n/messages';
import { Page } from '../../components/page';
import { SelectField } from '../shared/form-parts';
import {
  CloneFilterBar,
  CloneProgress,
  CloneStatus,
  DeleteCloneDialog,
  DemonstrationLabel,
  DialogUploads,
  MediaSlot,
  Refusal,
  RowButton,
  useT,
  type T,
} from './clone-parts';

export const TIER_LABEL: Record<ImageCloneTier, MessageId> = {
  standard: 'dhClones.tierStandard',
  advanced: 'dhClones.tierAdvanced',
};

/**
 * /digital-human/image-clone (partner, merchant): the caller's image clones (status that moves by
 * itself while they train, the reason of a failure, the demonstration label of the embedded
 * provider's results), the create dialog (source and consent videos picked or uploaded), the
 * preview (poster and loop) and delete. The clones area owns the calls, the watch and the reloads;
 * this view selects and sends.
 */
export default function ImageClonePage() {
  const t = useT();
  const area = useArea(digitalHumanClonesArea);
  return (
    <Page
      title={t('route.imageClone')}
      actions={
        <Button size="sm" onClick={() => area.imageForm.send({ type: 'OPEN' })}>
          {t('dhClones.newImage')}
        </Button>
      }
    >
      <ImageCloneList area={area} t={t} />
      <ImageCloneDialog area={area} />
      <ImagePreviewDialog area={area} t={t} />
      <DeleteCloneDialog actor={area.imageRemove} t={t} />
    </Page>
  );
}

function ImageCloneList(props: { area: DigitalHumanClonesActors; t: T }) {
  const { area, t } = props;
  const list = useListActor(area.images);
  const known = useSelector(area.watch, (s) => s.context.images);
  const rows = useMemo(() => list.rows.map((r) => known[r.id] ?? r), [list.rows, known]);
  const applied = list.query.filters;
  const columns = useMemo<Column<ImageClone>[]>(
    () => [
      {
        key: 'cover',
        header: t('dhClones.cover'),
        cell: (row) =>
          row.cover ? (
            <Image
              src={row.cover}
              alt={t('dhClones.coverOf', { name: row.name })}
              height="12"
              width="auto"
              borderRadius="sm"
            />
          ) : (
            <Box height="12" width="7" bg="bg.muted" borderRadius="sm" />
          ),
      },
      {
        key: 'name',
        header: t('dhClones.name'),
        cell: (row) => (
          <Stack gap="1" alignItems="flex-start">
            <Text>{row.name}</Text>
            <DemonstrationLabel show={row.demonstration} t={t} />
          </Stack>
        ),
      },
      { key: 'tier', header: t('dhClones.tier'), cell: (row) => t(TIER_LABEL[row.tier]) },
      {
        key: 'status',
        header: t('dhClones.status'),
        cell: (row) => <CloneStatus clone={row} t={t} />,
      },
      {
        key: 'progress',
        header: t('dhClones.progress'),
        cell: (row) => <CloneProgress clone={row} t={t} />,
      },
      {
        key: 'created',
        header: t('dhClones.created'),
        cell: (row) => formatDateTime(row.created_at),
      },
      {
        key: 'finished',
        header: t('dhClones.finished'),
        cell: (row) => (row.finished_at === null ? '—' : formatDateTime(row.finished_at)),
      },
      {
        key: 'actions',
        header: t('dhClones.actions'),
        pinned: 'end',
        cell: (row) => (
          <HStack gap="1">
            {row.status === 'ready' && row.preview_url && (
              <RowButton
                label={t('dhClones.preview')}
                named={t('dhClones.previewOf', { name: row.name })}
                onClick={() => area.imagePreview.send({ type: 'OPEN', clone: row })}
              />
            )}
            {canDeleteClone(row) && (
              <RowButton
                danger
                label={t('dhClones.delete')}
                named={t('dhClones.deleteOf', { name: row.name })}
                onClick={() => area.imageRemove.send({ type: 'OPEN', target: row })}
              />
            )}
          </HStack>
        ),
      },
    ],
    [t, area],
  );
  return (
    <Stack gap="4">
      <CloneFilterBar
        key={`${applied.status}:${applied.keyword}`}
        label={t('dhClones.imageFilters')}
        applied={applied}
        onApply={list.setFilters}
        t={t}
      />
      <DataTable
        label={t('dhClones.imageList')}
        testId="image-clones"
        columns={columns}
        rowKey={(r) => r.id}
        emptyText={t('dhClones.imageEmpty')}
        {...list.table}
        rows={rows}
      />
    </Stack>
  );
}

/** The create dialog: name, source video, consent video, tier. */
export function ImageCloneDialog(props: { area: DigitalHumanClonesActors }) {
  const intl = useIntl();
  const t = useT();
  const form = props.area.imageForm;
  const open = useSelector(form, (s) => s.hasTag('open'));
  const submitting = useSelector(form, (s) => s.hasTag('submitting'));
  const draft = useSelector(form, (s) => s.context.draft);
  const errors = useSelector(form, (s) => s.context.errors);
  const error = useSelector(form, (s) => s.context.error);
  if (!open) return null;
  const v = DH_LIMITS.imageCloneVideo;
  const c = DH_LIMITS.consentVideo;
  const err = (key: string) => (errors[key] ? formatText(intl, errors[key]) : null);
  const edit = (patch: Partial<typeof draft>) => form.send({ type: 'EDIT', patch });
  return (
    <FormDialog
      open
      title={t('dhClones.newImageTitle')}
      submitLabel={t('dhClones.submitImage')}
      submitting={submitting}
      onClose={() => form.send({ type: 'CLOSE' })}
      onSubmit={() => form.send({ type: 'SUBMIT' })}
    >
      <FormField label={t('dhClones.name')} error={err('name')} required>
        <Input
          value={draft.name}
          maxLength={DH_LIMITS.name.max + 10}
          disabled={submitting}
          autoComplete="off"
          onChange={(e) => edit({ name: e.currentTarget.value })}
        />
      </FormField>
      <MediaSlot
        label={t('dhClones.sourceVideo')}
        hint={t('dhClones.sourceVideoHint', {
          min: v.minSeconds,
          max: v.maxSeconds / 60,
          mb: v.maxBytes / 1024 / 1024,
        })}
        type="video"
        choices={props.area.videos}
        value={draft.video}
        error={errors.video_id ?? null}
        disabled={submitting}
        onPick={(video) => edit({ video })}
        onUploadHere={() => edit({ uploadFor: 'video' })}
        testId="slot-video"
      />
      <MediaSlot
        label={t('dhClones.consentVideo')}
        hint={t('dhClones.consentVideoHint', { min: c.minSeconds, max: c.maxSeconds })}
        type="video"
        choices={props.area.videos}
        value={draft.consent}
        error={errors.consent_video_id ?? null}
        disabled={submitting}
        onPick={(consent) => edit({ consent })}
        onUploadHere={() => edit({ uploadFor: 'consent' })}
        testId="slot-consent"
      />
      <DialogUploads />
      <SelectField
        label={t('dhClones.tier')}
        value={draft.tier}
        disabled={submitting}
        options={IMAGE_CLONE_TIERS.map((tier) => ({ value: tier, label: t(TIER_LABEL[tier]) }))}
        onChange={(tier) => edit({ tier })}
      />
      <Text fontSize="sm" color="fg.muted">
        {t('dhClones.imageCost')}
      </Text>
      <Refusal error={error} />
    </FormDialog>
  );
}

/** The preview of a ready clone: its poster and its short loop. */
function ImagePreviewDialog(props: { area: DigitalHumanClonesActors; t: T }) {
  const { area, t } = props;
  const clone = useSelector(area.imagePreview, (s) => s.context.clone);
  const close = () => area.imagePreview.send({ type: 'CLOSE' });
  return (
    <Dialog.Root
      open={clone !== null}
      lazyMount
      unmountOnExit
      onOpenChange={(e) => {
        if (!e.open) close();
      }}
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="image-clone-preview">
            <Dialog.Header>
              <Dialog.Title>
                {clone && t('dhClones.previewTitle', { name: clone.name })}
              </Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {clone && (
                <Stack gap="3" alignItems="center">
                  <DemonstrationLabel show={clone.demonstration} t={t} />
                  {clone.preview_url && (
                    <video
                      src={clone.preview_url}
                      poster={clone.cover ?? undefined}
                      aria-label={t('dhClones.loopOf', { name: clone.name })}
                      loop
                      muted
                      autoPlay
                      playsInline
                      controls
                      style={{ maxHeight: '60vh', maxWidth: '100%' }}
                    />
                  )}
                </Stack>
              )}
            </Dialog.Body>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('form.close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
