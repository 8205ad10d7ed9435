import { createToaster } from '@chakra-ui/react';

/** The notices' store: notices raised before the toaster mounts show once it has. */
export const toaster = createToaster({ placement: 'top', pauseOnPageIdle: true, max: 5 });

export type NoticeType = 'error' | 'success' | 'info' | 'loading' | 'warning';

/** Shows a notice; returns its id so a loading notice can be replaced by its outcome. */
export function notify(type: NoticeType, text: string, durationMs = 3000, id?: string): string {
  return toaster.create({
    // An `id: undefined` key would override the id zag generates and crash the toast machine.
    ...(id === undefined ? {} : { id }),
    type,
    title: text,
    duration: type === 'loading' ? undefined : durationMs,
  });
}
