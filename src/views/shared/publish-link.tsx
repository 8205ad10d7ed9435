import { Button } from '@chakra-ui/react';
import { Link } from 'react-router-dom';
import { publishLink, type MediaRef } from './deep-links';
import { useT } from './use-t';

/**
 * "Publish" on finished videos (a mixed-cut task's outputs, a digital-human video): the release
 * plan page with a new plan holding them (docs/domain.md §20). `name` names what is published in
 * the link's accessible name. Nothing to publish: nothing shown.
 */
export function PublishLink(props: {
  refs: readonly MediaRef[];
  name: string;
  size?: 'xs' | 'sm';
  variant?: 'ghost' | 'outline' | 'solid';
}) {
  const t = useT();
  if (props.refs.length === 0) return null;
  return (
    <Button asChild size={props.size ?? 'xs'} variant={props.variant ?? 'ghost'}>
      <Link to={publishLink(props.refs)} aria-label={t('publish.toPlanOf', { name: props.name })}>
        {t('publish.toPlan')}
      </Link>
    </Button>
  );
}
