import { Button } from '@chakra-ui/react';
import { useSearchParams } from 'react-router-dom';
import { Page } from '../../components/page';
import { MixedTaskFormSlot } from './task-form';
import { VideoTaskList } from './video-task-list';
import { useT } from './video-task-parts';

/** The search parameter that opens the create form: `/creation/mixed-task?new=1`. */
export const NEW_TASK_PARAM = 'new';

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
