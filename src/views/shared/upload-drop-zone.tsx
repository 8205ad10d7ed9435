import { Box, Button, HStack, NativeSelect, Text } from '@chakra-ui/react';
import { useRef, useState, type DragEvent } from 'react';
import { useIntl } from 'react-intl';
import {
  ACCEPTED_EXTENSIONS,
  MEDIA_KIND,
  RESOURCE_TYPES,
  type ResourceType,
} from '../../api/contract/resources';
import { useArea } from '../../app/actors/areas';
import { uploadsArea } from '../../app/actors/uploads';
import { notify } from '../../components/toaster';
import type { MessageId } from '../../i18n/messages';
import { classifyUpload } from './upload-format';

/** The message id of each resource type's name. */
export const RESOURCE_TYPE_LABEL: Record<ResourceType, MessageId> = {
  video: 'uploads.typeVideo',
  image: 'uploads.typeImage',
  audio: 'uploads.typeAudio',
  bgm: 'uploads.typeBgm',
  intro: 'uploads.typeIntro',
  outro: 'uploads.typeOutro',
  sticker: 'uploads.typeSticker',
  font: 'uploads.typeFont',
};

/**
 * The "Upload" button (a file picker offering the kind's extensions) and a zone files can be
 * dropped on, several at once. Without a `resourceType` (the page shows every type) the person
 * chooses the type here. The files go to the uploads area's queue; where any type may be uploaded
 * a file that is of another kind (a PNG while "video" is chosen) goes in as that kind, and the
 * person is told.
 */
export function UploadDropZone(props: {
  resourceType?: ResourceType;
  groupId?: number;
  /** The page takes any type (the library): `resourceType` is only the first choice. */
  otherTypes?: boolean;
}) {
  const intl = useIntl();
  const t = (id: MessageId, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const uploads = useArea(uploadsArea);
  const input = useRef<HTMLInputElement>(null);
  const [chosenType, setChosenType] = useState<ResourceType>('video');
  const [over, setOver] = useState(false);
  const type = props.resourceType ?? chosenType;
  const extensions = ACCEPTED_EXTENSIONS[MEDIA_KIND[type]];

  // Where any type may be uploaded, a file of another kind goes in as its own kind, said aloud.
  const anyType = props.resourceType === undefined || props.otherTypes === true;
  const add = (files: FileList | null) => {
    if (!files || files.length === 0) return;
    const byType = new Map<ResourceType, File[]>();
    for (const file of files) {
      const as = anyType ? classifyUpload(file, type) : type;
      if (as !== type) {
        notify(
          'info',
          t('uploads.classified', { name: file.name, type: t(RESOURCE_TYPE_LABEL[as]) }),
          5000,
        );
      }
      byType.set(as, [...(byType.get(as) ?? []), file]);
    }
    for (const [resourceType, list] of byType) {
      uploads.send({
        type: 'ADD_FILES',
        files: list,
        resourceType,
        ...(props.groupId !== undefined ? { groupId: props.groupId } : {}),
      });
    }
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    add(e.dataTransfer.files);
  };

  return (
    <Box
      role="group"
      aria-label={t('uploads.dropZone')}
      borderWidth="2px"
      borderStyle="dashed"
      borderColor={over ? 'colorPalette.solid' : 'border'}
      borderRadius="md"
      padding="4"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      data-testid="upload-drop-zone"
    >
      <HStack gap="3" wrap="wrap">
        {props.resourceType === undefined && (
          <NativeSelect.Root size="sm" width="auto">
            <NativeSelect.Field
              aria-label={t('uploads.type')}
              value={chosenType}
              onChange={(e) => setChosenType(e.currentTarget.value as ResourceType)}
            >
              {RESOURCE_TYPES.map((r) => (
                <option key={r} value={r}>
                  {t(RESOURCE_TYPE_LABEL[r])}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        )}
        <Button size="sm" onClick={() => input.current?.click()}>
          {t('uploads.upload')}
        </Button>
        <Text fontSize="sm" color="fg.muted">
          {t('uploads.dropHint', { extensions: extensions.join(' ') })}
        </Text>
      </HStack>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        accept={extensions.join(',')}
        aria-label={t('uploads.chooseFiles')}
        onChange={(e) => {
          add(e.currentTarget.files);
          // The same file may be chosen again later.
          e.currentTarget.value = '';
        }}
      />
    </Box>
  );
}
