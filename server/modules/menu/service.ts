import type { MenuItem } from '../../../src/api/contract/dashboard';
import { serverMenuFor, type AccessSubject } from '../../../src/app/routes/route-table';

/**
 * The server menu from the one route table: every section with a route the user may open, as an
 * item whose children are those routes. Sections for other roles and hidden routes stay reachable
 * but carry `hidden: true`.
 */
export function menuFor(subject: AccessSubject): MenuItem[] {
  return serverMenuFor(subject).map(({ group, listed, routes }) => ({
    name: group.key,
    path: `/${group.key}`,
    titleId: group.titleId,
    icon: group.icon,
    hidden: !listed,
    children: routes.map((route) => ({
      name: route.name,
      path: route.path,
      titleId: route.titleId,
      hidden: !listed || !!route.hidden,
      ...(route.activeMenu ? { activeMenu: route.activeMenu } : {}),
      children: [],
    })),
  }));
}
