import {
  Box,
  Button,
  CloseButton,
  Drawer,
  Portal,
  SimpleGrid,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useEffect } from 'react';
import { LIMITS, MIX_MODES } from '../../api/contract/video-tasks';
import { useArea } from '../../app/actors/areas';
import { videoTaskFormsArea } from '../../app/actors/video-task-forms';
import { DiscardDialog } from '../../components/discard-dialog';
import { ValidatedForm } from '../../components/validated-form';
import type { MixedDraft } from '../../machines/mixed-task-form';
import { nextKey } from '../../machines/task-form';
import {
  FormRefusal,
  PickedList,
  Section,
  SelectField,
  TextField,
  useFieldError,
  useTaskForm,
} from '../shared/form-parts';
import { ResourcePickerDialog } from '../shared/resource-picker-dialog';
import { useT } from '../shared/use-t';
import { EstimatePanel, CommonFields, usePicker } from './task-form-parts';
import { TaskBatchDialog, TaskBatchSection } from './task-batch-dialog';
import { TaskPresetsBar } from './task-presets-bar';
import { TaskPreviewPanel } from './task-preview';

const VIDEO_TYPES = ['video', 'intro', 'outro'] as const;

/**
 * The "New mixed-cut task" button of /creation/mixed-task: opens the create form (the drawer
 * below, rendered once on the page).
 */
export function NewMixedTaskButton() {
  const t = useT();
  const area = useArea(videoTaskFormsArea);
  return <Button onClick={() => area.mixed.send({ type: 'OPEN' })}>{t('taskForm.new')}</Button>;
}

/**
 * For a page that asks for the form in its address (`/creation/mixed-task?new=1`, the start page's
 * mixed-cut card): `open` is that request; the form opens (the area's actor owns it from then on)
 * and `onClose` drops the request at once, so a reload or Back does not open it again.
 */
export function MixedTaskFormSlot(props: { open: boolean; onClose: () => void }) {
  const area = useArea(videoTaskFormsArea);
  const { open, onClose } = props;
  useEffect(() => {
    if (!open) return;
    area.mixed.send({ type: 'OPEN' });
    onClose();
  }, [open, onClose, area]);
  return <MixedTaskFormDrawer />;
}

/**
 * The mixed-cut create form, a full-width drawer of /creation/mixed-task. The list
 * page renders it once and opens it with `area.mixed.send({ type: 'OPEN' })` (or
 * `<NewMixedTaskButton />`); the area closes it after a task was added, shows the notice and
 * tells the task lists. Closing it with something entered asks before discarding the draft.
 */
export function MixedTaskFormDrawer() {
  const t = useT();
  const area = useArea(videoTaskFormsArea);
  const form = useTaskForm(area.mixed);
  const pick = usePicker();
  const error = useFieldError(form.errors);
  const { draft, edit, submitting: busy } = form;
  // Cancel, the close button, Escape: with something entered, asks before discarding it.
  const close = () => form.send({ type: 'CANCEL' });
  const setGroup = (key: number, patch: Partial<MixedDraft['groups'][number]>) =>
    edit({ groups: draft.groups.map((g) => (g.key === key ? { ...g, ...patch } : g)) });
  return (
    <>
      <Drawer.Root
        open={form.open}
        placement="end"
        size="full"
        onOpenChange={(e) => {
          if (!e.open && !busy) close();
        }}
      >
        <Portal>
          <Drawer.Backdrop />
          <Drawer.Positioner>
            <Drawer.Content data-testid="mixed-task-form">
              <ValidatedForm
                style={{ display: 'contents' }}
                onSubmit={() => form.send({ type: 'SUBMIT' })}
              >
                <Drawer.Header>
                  <Drawer.Title>{t('taskForm.mixedTitle')}</Drawer.Title>
                </Drawer.Header>
                <Drawer.Body>
                  <Stack direction={{ base: 'column', lg: 'row' }} gap="6" alignItems="flex-start">
                    <Stack gap="5" flex="1" minWidth="0">
                      <FormRefusal error={form.error} />
                      <TaskPresetsBar kind="mixed" disabled={busy} />
                      <TaskBatchSection disabled={busy} />
                      <Section legend={t('taskForm.basics')}>
                        <SimpleGrid columns={{ base: 1, sm: 3 }} gap="3">
                          <TextField
                            label={t('taskForm.name')}
                            required
                            value={draft.name}
                            disabled={busy}
                            error={error('name')}
                            onChange={(name) => edit({ name })}
                          />
                          <SelectField
                            label={t('taskForm.mode')}
                            value={draft.mode}
                            disabled={busy}
                            options={MIX_MODES.map((m) => ({
                              value: m,
                              label: t(`taskForm.mode.${m}`),
                            }))}
                            onChange={(mode) => edit({ mode })}
                          />
                          <TextField
                            label={t('taskForm.count')}
                            numeric
                            required
                            value={draft.count}
                            disabled={busy}
                            error={error('count')}
                            helper={t('taskForm.range', LIMITS.count)}
                            onChange={(count) => edit({ count })}
                          />
                        </SimpleGrid>
                      </Section>
                      <Section
                        legend={t('taskForm.shotGroups')}
                        invalid={Boolean(error('shot_groups'))}
                      >
                        {draft.groups.map((group, i) => {
                          const n = i + 1;
                          return (
                            <Stack
                              key={group.key}
                              role="group"
                              aria-label={t('taskForm.groupN', { n })}
                              gap="2"
                              borderWidth="1px"
                              borderRadius="md"
                              padding="3"
                            >
                              <Text fontWeight="medium">{t('taskForm.groupN', { n })}</Text>
                              <PickedList
                                label={t('taskForm.groupShots', { n })}
                                items={group.shots}
                                pickLabel={t('taskForm.pickShots', { n })}
                                disabled={busy}
                                error={error(`shot_groups.${i}.resource_ids`)}
                                onPick={() =>
                                  pick(
                                    { form: 'mixed', part: 'group', key: group.key },
                                    VIDEO_TYPES,
                                    true,
                                    group.shots,
                                  )
                                }
                                onRemove={(id) =>
                                  setGroup(group.key, {
                                    shots: group.shots.filter((s) => s.id !== id),
                                  })
                                }
                              />
                              <TextField
                                label={t('taskForm.groupDuration', { n })}
                                numeric
                                value={group.duration}
                                disabled={busy}
                                error={error(`shot_groups.${i}.duration`)}
                                helper={t('taskForm.groupDurationHelp')}
                                onChange={(duration) => setGroup(group.key, { duration })}
                              />
                              {draft.groups.length > 1 && (
                                <Box>
                                  <Button
                                    size="xs"
                                    variant="ghost"
                                    disabled={busy}
                                    onClick={() =>
                                      edit({
                                        groups: draft.groups.filter((g) => g.key !== group.key),
                                      })
                                    }
                                  >
                                    {t('taskForm.removeGroup', { n })}
                                  </Button>
                                </Box>
                              )}
                            </Stack>
                          );
                        })}
                        {error('shot_groups') && (
                          <Text fontSize="sm" color="fg.error">
                            {error('shot_groups')}
                          </Text>
                        )}
                        <Box>
                          <Button
                            size="sm"
                            variant="outline"
                            disabled={busy || draft.groups.length >= LIMITS.shotGroups.max}
                            onClick={() =>
                              edit({
                                groups: [
                                  ...draft.groups,
                                  { key: nextKey(draft.groups), shots: [], duration: '' },
                                ],
                              })
                            }
                          >
                            {t('taskForm.addGroup')}
                          </Button>
                        </Box>
                      </Section>
                      <Section legend={t('taskForm.introOutro')}>
                        <SimpleGrid columns={{ base: 1, sm: 2 }} gap="3">
                          {(['intro', 'outro'] as const).map((part) => (
                            <Stack key={part} gap="1">
                              <Text fontSize="sm" fontWeight="medium">
                                {t(`taskForm.${part}`)}
                              </Text>
                              <PickedList
                                label={t(`taskForm.${part}`)}
                                items={draft[part] ? [draft[part]] : []}
                                pickLabel={t(`taskForm.pick.${part}`)}
                                disabled={busy}
                                onPick={() =>
                                  pick(
                                    { form: 'mixed', part },
                                    // The library's intros (outros) first, any video after.
                                    [part, 'video'],
                                    false,
                                    draft[part] ? [draft[part]] : [],
                                  )
                                }
                                onRemove={() => edit({ [part]: null })}
                              />
                            </Stack>
                          ))}
                        </SimpleGrid>
                        <TextField
                          label={t('taskForm.duration')}
                          numeric
                          value={draft.duration}
                          disabled={busy}
                          error={error('duration')}
                          helper={t('taskForm.durationHelp')}
                          onChange={(duration) => edit({ duration })}
                        />
                      </Section>
                      <CommonFields
                        form="mixed"
                        draft={draft}
                        errors={form.errors}
                        edit={edit}
                        disabled={busy}
                      />
                    </Stack>
                    <Stack
                      width={{ base: 'full', lg: '80' }}
                      gap="3"
                      position={{ lg: 'sticky' }}
                      top="0"
                    >
                      <EstimatePanel
                        {...form.estimate}
                        combinations
                        onRetry={() => form.send({ type: 'RETRY_ESTIMATE' })}
                      />
                      <TaskPreviewPanel
                        actor={area.mixedPreview}
                        body={form.priced}
                        disabled={busy}
                      />
                    </Stack>
                  </Stack>
                </Drawer.Body>
                <Drawer.Footer>
                  <Button variant="outline" disabled={busy} onClick={close}>
                    {t('form.cancel')}
                  </Button>
                  <Button type="submit" loading={busy} loadingText={t('taskForm.submit')}>
                    {t('taskForm.submit')}
                  </Button>
                </Drawer.Footer>
              </ValidatedForm>
              {/* Inside the drawer: the picker is a dialog layered over it (not hidden by it). */}
              <ResourcePickerDialog form="mixed" nested />
              <TaskBatchDialog />
              <DiscardDialog
                nested
                open={form.confirmingDiscard}
                onKeep={() => form.send({ type: 'KEEP' })}
                onDiscard={() => form.send({ type: 'DISCARD' })}
              />
              <Drawer.CloseTrigger asChild>
                <CloseButton size="sm" aria-label={t('form.close')} disabled={busy} />
              </Drawer.CloseTrigger>
            </Drawer.Content>
          </Drawer.Positioner>
        </Portal>
      </Drawer.Root>
    </>
  );
}
