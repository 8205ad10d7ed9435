import { Button } from '@chakra-ui/react';
import { useSearchParams } from 'react-router-dom';
import { Page } from '../../components/page';
import { VideoTaskList } from './video-task-list';
import { useT } from './video-task-parts';

/** The search parameter that opens the create form: `/creation/mixed-task?new=1`. */
export const NEW_TASK_PARAM = 'new';

/**
 * Integration point of the create form (the video-task-forms area and its views): shown while
 * the address has `?new=1` ("New mixed-cut" here, the mixed-cut card of /dashboard/to-create-video
 * set it); `onClose` removes it. At merge this placeholder goes and `MixedTaskFormSlot` (same
 * props) is imported from './task-form'. After a task is added the forms area's `onTaskAdded`
 * reaches the video tasks area's `taskAdded('mixed', id)` (src/app/actors/video-tasks.ts), which
 * reloads the list and opens the new task's detail.
 */
function MixedTaskFormSlot(_props: { open: boolean; onClose: () => void }) {
  return null;
}

/**
 * /creation/mixed-task (partner, merchant): the caller's batch mixed-cut tasks (filters, pages,
 * progress that moves by itself, the detail drawer with every output) and the way to a new one.
 */
export default function MixedTaskPage() {
  const t = useT();
  const [search, setSearch] = useSearchParams();
  const creating = search.get(NEW_TASK_PARAM) === '1';
  const setCreating = (open: boolean) =>
    setSearch(
      (s) => {
        const next = new URLSearchParams(s);
        if (open) next.set(NEW_TASK_PARAM, '1');
        else next.delete(NEW_TASK_PARAM);
        return next;
      },
      { replace: !open },
    );
  return (
    <Page
      title={t('route.mixedTask')}
      actions={
        <Button size="sm" onClick={() => setCreating(true)}>
          {t('videoTasks.newMixed')}
        </Button>
      }
    >
      <VideoTaskList kind="mixed" />
      <MixedTaskFormSlot open={creating} onClose={() => setCreating(false)} />
    </Page>
  );
}
