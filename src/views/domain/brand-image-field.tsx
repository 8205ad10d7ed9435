import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { acceptOf } from '../../api/contract/platform-image-rules';
import type { ImageUploadActor } from '../../app/actors/image-uploads';
import { ImageUploadField } from '../../components/image-upload-field';
import { formatText } from '../../i18n/intl';

/**
 * The domain form's logo or favicon: an uploaded image (docs/domain.md §12). The upload is the
 * area's (`logo`, `favicon` actors), which puts each uploaded image's address into the draft.
 */
export function BrandImageField(props: {
  upload: ImageUploadActor;
  label: string;
  helper: string;
  value: string;
  /** The draft's own problem of the field (the contract's message), if any. */
  error: string | null;
  disabled: boolean;
  onClear: () => void;
  testId: string;
}) {
  const intl = useIntl();
  const { upload } = props;
  const purpose = useSelector(upload, (s) => s.context.purpose);
  const sending = useSelector(upload, (s) => (s.hasTag('uploading') ? s.context.file : null));
  const failed = useSelector(upload, (s) => s.context.error);
  return (
    <ImageUploadField
      label={props.label}
      helper={props.helper}
      value={props.value}
      accept={acceptOf(purpose)}
      uploading={sending?.name ?? null}
      error={failed ? formatText(intl, failed.text, failed.values) : props.error}
      disabled={props.disabled}
      onPick={(file) => upload.send({ type: 'PICK', file })}
      onClear={props.onClear}
      testId={props.testId}
    />
  );
}
