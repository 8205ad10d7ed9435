import { Button } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { Page } from '../../components/page';
import { VideoTaskList } from './video-task-list';
import { useT } from './video-task-parts';

/**
 * /creation/clip (partner, merchant whose show_clip_menu is 1): the caller's smart clip tasks, as
 * the mixed-cut list shows them; "New clip" opens the single-video editor (/creation/mixedshear).
 */
export default function ClipPage() {
  const t = useT();
  return (
    <Page
      title={t('route.clip')}
      actions={
        <Button asChild size="sm">
          <RouterLink to="/creation/mixedshear">{t('videoTasks.newClip')}</RouterLink>
        </Button>
      }
    >
      <VideoTaskList kind="clip" />
    </Page>
  );
}
