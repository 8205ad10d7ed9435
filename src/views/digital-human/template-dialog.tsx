import { Box, Button, HStack, Image, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { TEMPLATE_RATIOS, type TemplateRatio } from '../../api/contract/dh-templates';
import { acceptOf } from '../../api/contract/platform-image-rules';
import type { ResourceType } from '../../api/contract/resources';
import {
  layoutOf,
  startTemplateForm,
  type AvatarValues,
  type TemplateFileValue,
  type TemplateValues,
} from '../../app/actors/dh-template-form';
import type {
  DhTemplatesActors,
  TemplateFileField,
} from '../../app/actors/digital-human-templates';
import type { ImageUploadActor } from '../../app/actors/image-uploads';
import { ColorField, SelectField, TextField, useFieldError } from '../../components/form-fields';
import { ImageUploadField } from '../../components/image-upload-field';
import { formatText } from '../../i18n/intl';
import type { MessageId } from '../../i18n/messages';
import { CallDialog, useCall } from '../shared/call-dialog';
import { Section } from '../shared/form-parts';
import { ResourcePickerDialog } from '../shared/resource-picker-dialog';
import { useDialogForm } from '../shared/use-dialog-state';
import { useT, type T } from '../shared/use-t';
import { TemplateFrame } from './template-parts';

const EMPTY = startTemplateForm(null);

/** What each file field of an own template takes from the library. */
const FILE_TYPES: Record<TemplateFileField, readonly ResourceType[]> = {
  backgroundImage: ['image'],
  cover: ['image'],
  demo: ['video'],
  music: ['bgm', 'audio'],
};
const FILE_LABEL: Record<TemplateFileField, MessageId> = {
  backgroundImage: 'dhTemplates.backgroundImage',
  cover: 'dhTemplates.cover',
  demo: 'dhTemplates.demo',
  music: 'dhTemplates.music',
};

/**
 * The template dialog (new, or a row's edit; docs/domain.md §10 "Video templates"): the area's
 * dialog machine owns the draft and checks it with the contract; the view shows it, sends each
 * change and shows the frame as it will be. `platform`: the admin's, whose pictures are uploaded
 * platform images; the others pick files of their library (background, cover, demo, music).
 */
export function TemplateDialog(props: { area: DhTemplatesActors; platform: boolean }) {
  const { area, platform } = props;
  const t = useT();
  const call = useCall(area.dialog);
  const { form, errors, set: setField } = useDialogForm(area.dialog, EMPTY);
  const error = useFieldError(errors);
  // After the server's refusal a change edits the same draft again (the machine's BACK first).
  const set = <K extends keyof TemplateValues & string>(field: K, value: TemplateValues[K]) => {
    if (call.failed) area.dialog.send({ type: 'BACK' });
    setField(field, value);
  };
  if (!call.open) return null;
  const row = call.target;
  const busy = call.submitting;
  const avatar = (key: keyof AvatarValues) => (value: string) =>
    set('avatar', { ...form.avatar, [key]: value });
  return (
    <CallDialog
      // The server's refusal shows until the person changes the draft.
      call={{ ...call, error: call.failed ? call.error : null }}
      title={row ? t('dhTemplates.editTitle', { name: row.name }) : t('dhTemplates.newTitle')}
      submitLabel={t('dhTemplates.save')}
      onSubmit={() => call.submit()}
      // In the dialog's tree (its modality would hide a picker portalled beside it), outside its form.
      layers={platform ? null : <ResourcePickerDialog form="dhTemplate" actors={area} nested />}
    >
      <TextField
        label={t('dhTemplates.name')}
        required
        value={form.name}
        maxLength={30}
        disabled={busy}
        error={error('name')}
        {...(row?.builtin ? { helper: t('dhTemplates.builtinName') } : {})}
        onChange={(value) => set('name', value)}
      />
      <SelectField<TemplateRatio>
        label={t('dhTemplates.ratio')}
        value={form.ratio}
        disabled={busy}
        error={error('ratio')}
        options={TEMPLATE_RATIOS.map((r) => ({ value: r, label: r }))}
        onChange={(value) => set('ratio', value)}
      />
      <Stack direction={{ base: 'column', md: 'row' }} gap="4" alignItems="flex-start">
        <Stack gap="4" flex="1" minWidth="0">
          <Section legend={t('dhTemplates.avatar')} invalid={Boolean(errors.avatar)}>
            <SimpleGrid columns={2} gap="2">
              {(
                [
                  ['x', 'dhTemplates.avatarX'],
                  ['y', 'dhTemplates.avatarY'],
                  ['width', 'dhTemplates.avatarWidth'],
                  ['height', 'dhTemplates.avatarHeight'],
                ] as const
              ).map(([key, label]) => (
                <TextField
                  key={key}
                  label={t(label)}
                  numeric
                  value={form.avatar[key]}
                  disabled={busy}
                  onChange={avatar(key)}
                />
              ))}
            </SimpleGrid>
            {error('avatar') && (
              <Text fontSize="sm" color="fg.error">
                {error('avatar')}
              </Text>
            )}
          </Section>
          <Section legend={t('dhTemplates.subtitle')}>
            <SimpleGrid columns={2} gap="2">
              <TextField
                label={t('dhTemplates.subtitleY')}
                numeric
                value={form.subtitleY}
                disabled={busy}
                error={error('subtitleY')}
                onChange={(value) => set('subtitleY', value)}
              />
              <TextField
                label={t('dhTemplates.subtitleSize')}
                numeric
                value={form.subtitleSize}
                disabled={busy}
                error={error('subtitleSize')}
                onChange={(value) => set('subtitleSize', value)}
              />
            </SimpleGrid>
            <ColorField
              label={t('dhTemplates.subtitleColour')}
              pickerLabel={t('dhTemplates.subtitleColourPicker')}
              fallback="#FFFFFF"
              value={form.subtitleColor}
              disabled={busy}
              error={error('subtitleColor')}
              onChange={(value) => set('subtitleColor', value)}
            />
          </Section>
        </Stack>
        <Stack gap="2" alignItems="center" width={{ base: 'full', md: '48' }}>
          <Text fontSize="sm" color="fg.muted">
            {t('dhTemplates.preview')}
          </Text>
          <TemplateFrame
            ratio={form.ratio}
            layout={layoutOf(form)}
            backgroundImage={form.backgroundImage?.url ?? null}
            height="48"
            t={t}
          />
        </Stack>
      </Stack>
      <Section legend={t('dhTemplates.background')}>
        <ColorField
          label={t('dhTemplates.backgroundColour')}
          pickerLabel={t('dhTemplates.backgroundColourPicker')}
          fallback="#000000"
          value={form.background}
          disabled={busy}
          error={error('background')}
          onChange={(value) => set('background', value)}
        />
        {platform ? (
          <PlatformImage
            label={t('dhTemplates.backgroundImage')}
            upload={area.backgroundUpload}
            value={form.backgroundImage}
            error={error('backgroundImage')}
            onClear={() => set('backgroundImage', null)}
          />
        ) : (
          <LibraryFile
            area={area}
            field="backgroundImage"
            value={form.backgroundImage}
            error={error('backgroundImage')}
            disabled={busy}
            onClear={() => set('backgroundImage', null)}
            t={t}
          />
        )}
      </Section>
      <Section legend={t('dhTemplates.showcase')}>
        {platform ? (
          <PlatformImage
            label={t('dhTemplates.cover')}
            upload={area.coverUpload}
            value={form.cover}
            error={error('cover')}
            onClear={() => set('cover', null)}
          />
        ) : (
          (['cover', 'demo', 'music'] as const).map((field) => (
            <LibraryFile
              key={field}
              area={area}
              field={field}
              value={form[field]}
              error={error(field)}
              disabled={busy}
              onClear={() => set(field, null)}
              t={t}
            />
          ))
        )}
        <Text fontSize="sm" color="fg.muted">
          {t(platform ? 'dhTemplates.platformFilesHint' : 'dhTemplates.coverHint')}
        </Text>
      </Section>
    </CallDialog>
  );
}

/** A picture of a platform template: an uploaded platform image (the admin's). */
function PlatformImage(props: {
  label: string;
  upload: ImageUploadActor;
  value: TemplateFileValue | null;
  error: string | null;
  onClear: () => void;
}) {
  const intl = useIntl();
  const sending = useSelector(props.upload, (s) => (s.hasTag('uploading') ? s.context.file : null));
  const failed = useSelector(props.upload, (s) => s.context.error);
  return (
    <ImageUploadField
      label={props.label}
      value={props.value?.url ?? ''}
      accept={acceptOf('content')}
      uploading={sending?.name ?? null}
      error={failed ? formatText(intl, failed.text, failed.values) : props.error}
      onPick={(file) => props.upload.send({ type: 'PICK', file })}
      onClear={props.onClear}
    />
  );
}

/** A file of an own template: the library's resource picked (the picker opens on its types). */
function LibraryFile(props: {
  area: DhTemplatesActors;
  field: TemplateFileField;
  value: TemplateFileValue | null;
  error: string | null;
  disabled: boolean;
  onClear: () => void;
  t: T;
}) {
  const { area, field, value, t } = props;
  const label = t(FILE_LABEL[field]);
  return (
    <Stack gap="1" role="group" aria-label={label} data-testid={`template-file-${field}`}>
      <Text fontSize="sm" fontWeight="medium">
        {label}
      </Text>
      <HStack gap="2" wrap="wrap">
        {value?.poster || (value?.url && field !== 'music' && field !== 'demo') ? (
          <Image
            src={value.poster ?? value.url ?? undefined}
            alt=""
            boxSize="10"
            objectFit="cover"
            borderRadius="sm"
          />
        ) : null}
        <Text fontSize="sm" color={value ? undefined : 'fg.muted'}>
          {value ? value.name : t('dhTemplates.noFile')}
        </Text>
        <Button
          size="xs"
          variant="outline"
          disabled={props.disabled}
          aria-label={t(value ? 'dhTemplates.replaceFile' : 'dhTemplates.pickFile', {
            field: label,
          })}
          onClick={() =>
            area.picker.send({
              type: 'OPEN',
              slot: { form: 'dhTemplate', part: field },
              types: FILE_TYPES[field],
              multiple: false,
              picked: [],
            })
          }
        >
          {t(value ? 'dhTemplates.replace' : 'dhTemplates.pick')}
        </Button>
        {value && (
          <Button
            size="xs"
            variant="ghost"
            colorPalette="red"
            disabled={props.disabled}
            aria-label={t('dhTemplates.removeFile', { field: label })}
            onClick={props.onClear}
          >
            {t('dhTemplates.remove')}
          </Button>
        )}
      </HStack>
      {props.error && (
        <Box fontSize="sm" color="fg.error">
          {props.error}
        </Box>
      )}
    </Stack>
  );
}
