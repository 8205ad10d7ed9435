import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { CreationMediaType } from '../../api/contract/matrix-plans';
import type { NotificationRow } from '../../api/contract/notifications';

/* Deep links into list pages: a search parameter that opens one item's drawer or player, so a
   notification (or a bookmark) can lead straight to it. The page removes it once opened. */

/** The search parameter that opens a task's drawer on its list page: `?task=12`. */
export const TASK_PARAM = 'task';
/** The search parameter that opens a digital-human video on its list page: `?video=7`. */
export const VIDEO_PARAM = 'video';
/**
 * The search parameter that opens a new release plan with finished videos chosen:
 * `?media=video_output:12,dh_video:7` (docs/domain.md §20).
 */
export const MEDIA_PARAM = 'media';

// Not the contract's values: the shell (the notifications' links) imports this file, and the
// plan contract's schemas (and their messages) belong to the matrix pages' part.
const MEDIA_KINDS: readonly CreationMediaType[] = ['video_output', 'dh_video'];
/** A plan's media at most (the contract's PLAN_MEDIA_MAX). */
const MEDIA_MAX = 500;

export interface MediaRef {
  type: CreationMediaType;
  id: number;
}

/** "Publish": the release plan page, a new plan with these finished videos. */
export function publishLink(refs: readonly MediaRef[]): string {
  const value = refs.map((r) => `${r.type}:${r.id}`).join(',');
  return `/matrix-distribution/release-plan?${MEDIA_PARAM}=${encodeURIComponent(value)}`;
}

/** The videos a `?media=` value names (unknown kinds and malformed items left out). */
export function parseMediaRefs(value: string): MediaRef[] {
  const refs = new Map<string, MediaRef>();
  for (const item of value.split(',')) {
    const [type, id] = item.split(':');
    const n = Number(id);
    if (!MEDIA_KINDS.includes(type as CreationMediaType)) continue;
    if (!Number.isSafeInteger(n) || n <= 0) continue;
    refs.set(`${type}:${n}`, { type: type as CreationMediaType, id: n });
  }
  return [...refs.values()].slice(0, MEDIA_MAX);
}

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
  useDeepLinkValue(param, (value) => {
    const id = Number(value);
    if (Number.isSafeInteger(id) && id > 0) open(id);
  });
}

/** `useDeepLink` for any value (`?media=video_output:12`): opened once, then taken out. */
export function useDeepLinkValue(param: string, open: (value: string) => void): void {
  const [search, setSearch] = useSearchParams();
  const value = search.get(param);
  const opener = useRef(open);
  opener.current = open;
  useEffect(() => {
    if (!value) return;
    opener.current(value);
    setSearch(
      (s) => {
        const next = new URLSearchParams(s);
        next.delete(param);
        return next;
      },
      { replace: true },
    );
  }, [value, param, setSearch]);
}
