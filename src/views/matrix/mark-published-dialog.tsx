import { Text } from '@chakra-ui/react';
import type { MatrixPlansActors } from '../../app/actors/matrix-plans';
import { TextFormDialog } from '../shared/call-dialog';
import { useT } from '../shared/use-t';

/**
 * Marks an assisted account's post published by hand (docs/domain.md §20): the person pastes the
 * share link; its machine holds it (empty on each opening) and checks it with the contract's rule
 * before the call (docs/architecture.md "Forms"); the message, or the server's refusal, shows in
 * the dialog. Once saved, the area shows the page's notice and reloads the posts.
 */
export function MarkPublishedDialog(props: { actor: MatrixPlansActors['markPublished'] }) {
  const t = useT();
  return (
    <TextFormDialog
      actor={props.actor}
      title={(post) => t('matrixPlans.markPublishedTitle', { title: post?.title ?? '' })}
      label={t('matrixPlans.shareUrl')}
      submitLabel={t('matrixPlans.markPublished')}
      maxLength={500}
      inputMode="url"
    >
      <Text>{t('matrixPlans.markPublishedWhat')}</Text>
    </TextFormDialog>
  );
}
