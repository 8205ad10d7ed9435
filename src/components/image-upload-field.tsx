import { Box, Button, HStack, Image, Stack, Text } from '@chakra-ui/react';
import { useId, useRef } from 'react';
import { useIntl } from 'react-intl';
import type { MessageId } from '../i18n/messages';

/**
 * A form's uploaded image (docs/domain.md §8 "Platform images": a domain's logo and favicon, an
 * article's cover): the image it holds, a button choosing a file (sent at once; the owner of the
 * upload says how it goes) and one removing the image. The value is an address the server gave;
 * the field never types or inlines one.
 */
export function ImageUploadField(props: {
  label: string;
  /** The image's address, '' for none. */
  value: string;
  /** The file input's `accept` (the purpose's extensions). */
  accept: string;
  helper?: string;
  /** The name of the file being sent, or null. */
  uploading: string | null;
  error?: string | null;
  disabled?: boolean;
  onPick: (file: File) => void;
  onClear: () => void;
  testId?: string;
}) {
  const intl = useIntl();
  const t = (id: MessageId, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const input = useRef<HTMLInputElement>(null);
  const labelId = useId();
  const noteId = useId();
  const field = props.label;
  const busy = props.uploading !== null;
  return (
    <Stack
      gap="1.5"
      role="group"
      aria-labelledby={labelId}
      aria-describedby={noteId}
      aria-busy={busy}
      data-testid={props.testId}
    >
      <Text id={labelId} fontWeight="medium" fontSize="sm">
        {field}
      </Text>
      <HStack gap="3" align="center" wrap="wrap">
        <Box
          borderWidth="1px"
          borderRadius="sm"
          padding="1"
          minWidth="12"
          height="12"
          display="flex"
          alignItems="center"
          justifyContent="center"
          bg="bg.muted"
        >
          {props.value ? (
            <Image
              src={props.value}
              alt={t('imageField.preview', { field })}
              maxHeight="10"
              maxWidth="32"
              objectFit="contain"
            />
          ) : (
            <Text fontSize="xs" color="fg.muted" paddingX="1">
              {t('imageField.none')}
            </Text>
          )}
        </Box>
        <Button
          size="sm"
          variant="outline"
          disabled={props.disabled || busy}
          onClick={() => input.current?.click()}
        >
          {t(props.value ? 'imageField.replace' : 'imageField.upload', { field })}
        </Button>
        {props.value && (
          <Button
            size="sm"
            variant="ghost"
            colorPalette="red"
            aria-label={t('imageField.removeOf', { field })}
            disabled={props.disabled || busy}
            onClick={props.onClear}
          >
            {t('imageField.remove')}
          </Button>
        )}
        <input
          ref={input}
          type="file"
          hidden
          accept={props.accept}
          aria-label={t('imageField.choose', { field })}
          disabled={props.disabled || busy}
          onChange={(e) => {
            const file = e.currentTarget.files?.[0];
            // The same file may be chosen again later.
            e.currentTarget.value = '';
            if (file) props.onPick(file);
          }}
        />
      </HStack>
      <Box id={noteId} fontSize="sm" aria-live="polite">
        {busy && (
          <Text color="fg.muted">{t('imageField.uploading', { name: props.uploading! })}</Text>
        )}
        {!busy && props.error && <Text color="fg.error">{props.error}</Text>}
        {!busy && !props.error && props.helper && <Text color="fg.muted">{props.helper}</Text>}
      </Box>
    </Stack>
  );
}
