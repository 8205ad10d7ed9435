import { useEffect } from 'react';
import { dismissNotice, notify } from '../../components/toaster';
import { currentIntl } from '../../i18n/intl';
import { menuNotice, type MenuNotice, type MenuSnapshot } from '../../machines/menu';
import { useAppActors } from '../actors/actors-context';

const MENU_NOTICE_ID = 'menu-load';

/**
 * The menu notices of docs/domain.md §14 (loading, then success or error). Mounted with the providers, not
 * under the router: with "menu from server" on, the first load runs in the route guard before
 * the router renders anything. Raised from the actor's subscription, not from a React effect:
 * the toaster flushes synchronously, and a dismiss sent while React is committing is lost (the
 * loading notice then stayed for ever).
 */
export function MenuNotices() {
  const { menu } = useAppActors();
  useEffect(() => {
    let shown: MenuNotice['type'] | null = null;
    const show = (snapshot: MenuSnapshot) => {
      const notice = menuNotice(snapshot);
      if ((notice?.type ?? null) === shown) return;
      shown = notice?.type ?? null;
      // Back to idle (the switch went off, a logout): no load under way any more.
      if (!notice) return dismissNotice(MENU_NOTICE_ID);
      const text = currentIntl().formatMessage({ id: notice.messageId });
      if (notice.type === 'loading') {
        notify('loading', text, 0, MENU_NOTICE_ID);
      } else {
        dismissNotice(MENU_NOTICE_ID);
        notify(notice.type, text);
      }
    };
    // A load the route guard started (or even finished) before this mounted.
    queueMicrotask(() => show(menu.getSnapshot()));
    const subscription = menu.subscribe(show);
    return () => subscription.unsubscribe();
  }, [menu]);
  return null;
}
