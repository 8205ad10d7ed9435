import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import type { MenuItem } from '../../api/contract/dashboard';
import { roleOf } from '../../api/contract/roles';
import { useAppActors } from '../actors/actors-context';
import { menuFor } from '../routes/route-table';

export interface MenuSection {
  key: string;
  titleId: string;
  icon: string;
  routes: { name: string; path: string; titleId: string }[];
}

function fromServer(items: MenuItem[]): MenuSection[] {
  return items
    .filter((group) => !group.hidden)
    .map((group) => ({
      key: group.name,
      titleId: group.titleId,
      icon: group.icon ?? group.name,
      routes: group.children.filter((r) => !r.hidden),
    }))
    .filter((section) => section.routes.length > 0);
}

/**
 * The menu: from the server when "menu from server" is on and it has loaded, else from the one
 * route table, filtered by role and the user's flags. Hidden routes are never listed.
 */
export function useMenuSections(): MenuSection[] {
  const { auth, menu, settings } = useAppActors();
  const user = useSelector(auth, (s) => s.context.user);
  const serverOn = useSelector(settings, (s) => s.context.menuFromServer);
  const serverItems = useSelector(menu, (s) => (s.matches('loaded') ? s.context.items : null));
  // Worked out again only when one of these changes, not on every navigation of the menus.
  const role = user && roleOf(user.user_type);
  const showClipMenu = user?.show_clip_menu;
  return useMemo(() => {
    if (!role) return [];
    if (serverOn && serverItems) return fromServer(serverItems);
    return menuFor({ role, show_clip_menu: showClipMenu }).map(({ group, routes }) => ({
      key: group.key,
      titleId: group.titleId,
      icon: group.icon,
      routes: routes.map(({ name, path, titleId }) => ({ name, path, titleId })),
    }));
  }, [role, showClipMenu, serverOn, serverItems]);
}
