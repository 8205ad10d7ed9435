import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { NotificationRow } from '../../api/contract/notifications';

/* Deep links into list pages: a search parameter that opens one item's drawer or player, so a
   notification (or a bookmark) can lead straight to it. The page removes it once opened. */

/** The search parameter that opens a task's drawer on its list page: `?task=12`. */
export const TASK_PARAM = 'task';
/** The search parameter that opens a digital-human video on its list page: `?video=7`. */
export const VIDEO_PARAM = 'video';

/**
 * Where a notification leads (the route table's pages): a video task's drawer on the mixed-cut or
 * clip list, a digital-human video on the video list, a clone's page, an account's page.
 */
export function linkOf(row: Pick<NotificationRow, 'subject_type' | 'subject_id' | 'params'>) {
  switch (row.subject_type) {
    case 'video_task': {
      const page = row.params.task_kind === 'clip' ? '/creation/clip' : '/creation/mixed-task';
      return `${page}?${TASK_PARAM}=${row.subject_id}`;
    }
    case 'dh_video':
      return `/digital-human/digital-video?${VIDEO_PARAM}=${row.subject_id}`;
    case 'dh_image_clone':
      return '/digital-human/image-clone';
    case 'dh_voice_clone':
      return '/digital-human/sound-clone';
    case 'matrix_account':
      // Authorising it again starts from the accounts page.
      return '/matrix-distribution/authorization';
    case 'matrix_plan':
      return '/matrix-distribution/release-plan';
  }
}

/**
 * Opens the item a page's deep link names (`?task=12`) once, then takes the parameter out of
 * the address (replaced, not pushed), so following the same link again opens it again.
 */
export function useDeepLink(param: string, open: (id: number) => void): void {
  const [search, setSearch] = useSearchParams();
  const id = Number(search.get(param));
  const opener = useRef(open);
  opener.current = open;
  useEffect(() => {
    if (!Number.isSafeInteger(id) || id <= 0) return;
    opener.current(id);
    setSearch(
      (s) => {
        const next = new URLSearchParams(s);
        next.delete(param);
        return next;
      },
      { replace: true },
    );
  }, [id, param, setSearch]);
}
