import { Input, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { postMarkPublishedBody, type PlanPost } from '../../api/contract/matrix-plans';
import type { MatrixPlansActors } from '../../app/actors/matrix-plans';
import { FormField } from '../../components/form-field';
import { formatText } from '../../i18n/intl';
import { CallDialog, useCall } from '../shared/call-dialog';
import { useT } from '../shared/use-t';

/**
 * Marks an assisted account's post published by hand (docs/domain.md §20): the person pastes the
 * share link, checked with the contract's rule before the call; the server's refusal shows under
 * the field. Once saved, the area shows the page's notice and reloads the posts.
 */
export function MarkPublishedDialog(props: { actor: MatrixPlansActors['markPublished'] }) {
  const call = useCall(props.actor);
  const target = call.target;
  if (!call.open || !target) return null;
  return <ShareUrlForm key={target.id} call={call} id={target.id} title={target.title} />;
}

function ShareUrlForm(props: {
  call: ReturnType<typeof useCall<PlanPost, { share_url: string }, unknown>>;
  id: number;
  title: string;
}) {
  const t = useT();
  const intl = useIntl();
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <CallDialog
      call={props.call}
      title={t('matrixPlans.markPublishedTitle', { title: props.title })}
      submitLabel={t('matrixPlans.markPublished')}
      onSubmit={() => {
        const parsed = postMarkPublishedBody.safeParse({ id: props.id, share_url: url });
        if (!parsed.success) {
          setError(formatText(intl, parsed.error.issues[0]?.message ?? 'validation.invalid'));
          return;
        }
        setError(null);
        props.call.submit({ share_url: parsed.data.share_url });
      }}
    >
      <Text>{t('matrixPlans.markPublishedWhat')}</Text>
      <FormField label={t('matrixPlans.shareUrl')} error={error}>
        <Input
          type="url"
          inputMode="url"
          value={url}
          onChange={(e) => setUrl(e.currentTarget.value)}
        />
      </FormField>
    </CallDialog>
  );
}
