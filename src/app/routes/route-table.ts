/**
 * The ONE route table (docs/architecture.md rule 3). Guards, menus, tab titles, the server's menu
 * endpoint and the tests' role checks all read it. Pure data: no React, so the server imports it.
 * Roles from docs/domain.md §13; '*' = any logged-in role.
 */
import type { Role } from '../../api/contract/roles';

export type RouteRoles = readonly Role[] | '*';

export interface RouteGroup {
  /** Path prefix, also the menu section key. */
  key: string;
  titleId: string;
  icon: string;
  /** Who sees the section in the menu (its routes carry their own access roles). */
  menuRoles: RouteRoles;
  /** Where the bare group path (/dashboard) leads. */
  defaultChild: string;
}

export interface RouteRecord {
  name: string;
  path: string;
  titleId: string;
  /** Menu section; undefined for top-level routes (login, redirect, not-found). */
  group?: string;
  roles: RouteRoles;
  requiresAuth: boolean;
  /** Never listed in a menu. */
  hidden?: boolean;
  /** Which menu entry lights up when this hidden route is open. */
  activeMenu?: string;
  /** Needs the user's show_clip_menu flag. */
  clipFeature?: boolean;
  /** Rendered afresh when its tab is shown again. */
  ignoreCache?: boolean;
  /** Never kept as a tab. */
  noTab?: boolean;
}

export const DEFAULT_ROUTE = '/home/index';
export const LOGIN_ROUTE = '/login';
export const NOT_FOUND_NAME = 'notFound';

const PARTNER_MERCHANT: readonly Role[] = ['partner', 'merchant'];
const ADMIN_PARTNER: readonly Role[] = ['admin', 'partner'];
const ADMIN: readonly Role[] = ['admin'];
const DEVELOPER: readonly Role[] = ['developer'];

export const ROUTE_GROUPS: readonly RouteGroup[] = [
  {
    key: 'home',
    titleId: 'menu.home',
    icon: 'home',
    menuRoles: ADMIN,
    defaultChild: '/home/index',
  },
  {
    key: 'dashboard',
    titleId: 'menu.dashboard',
    icon: 'dashboard',
    menuRoles: PARTNER_MERCHANT,
    defaultChild: '/dashboard/workBench',
  },
  {
    key: 'creation',
    titleId: 'menu.creation',
    icon: 'creation',
    menuRoles: PARTNER_MERCHANT,
    defaultChild: '/creation/resource',
  },
  {
    key: 'digital-human',
    titleId: 'menu.digitalHuman',
    icon: 'digitalHuman',
    // The admin manages the platform's video templates there (its only page of the section).
    menuRoles: ['admin', 'partner', 'merchant'],
    defaultChild: '/digital-human/digital-video',
  },
  {
    key: 'matrix-distribution',
    titleId: 'menu.matrix',
    icon: 'matrix',
    menuRoles: PARTNER_MERCHANT,
    defaultChild: '/matrix-distribution/authorization',
  },
  {
    key: 'promotion',
    titleId: 'menu.promotion',
    icon: 'promotion',
    menuRoles: ADMIN_PARTNER,
    defaultChild: '/promotion/merchant',
  },
  {
    key: 'account',
    titleId: 'menu.account',
    icon: 'account',
    menuRoles: ['admin', 'partner', 'merchant'],
    defaultChild: '/account/property',
  },
  {
    key: 'domain',
    titleId: 'menu.domain',
    icon: 'domain',
    menuRoles: ADMIN,
    defaultChild: '/domain/domainList',
  },
  {
    key: 'protocol',
    titleId: 'menu.protocol',
    icon: 'protocol',
    menuRoles: ADMIN_PARTNER,
    defaultChild: '/protocol/article',
  },
  {
    key: 'ai-tool',
    titleId: 'menu.aiTool',
    icon: 'aiTool',
    menuRoles: ADMIN,
    defaultChild: '/ai-tool/ai-tool-index',
  },
  {
    key: 'user',
    titleId: 'menu.user',
    icon: 'user',
    // The agent may open no other page: without this section its side menu would be empty.
    menuRoles: [...DEVELOPER, 'agent'],
    defaultChild: '/user/info',
  },
  {
    key: 'exception',
    titleId: 'menu.exception',
    icon: 'exception',
    menuRoles: DEVELOPER,
    defaultChild: '/exception/404',
  },
];

const r = (
  group: string,
  name: string,
  sub: string,
  roles: RouteRoles,
  extra: Partial<RouteRecord> = {},
): RouteRecord => ({
  name,
  path: `/${group}/${sub}`,
  titleId: `route.${name}`,
  group,
  roles,
  requiresAuth: true,
  ...extra,
});

export const ROUTES: readonly RouteRecord[] = [
  r('home', 'home', 'index', ADMIN),
  r('dashboard', 'workBench', 'workBench', PARTNER_MERCHANT),
  r('dashboard', 'toCreateVideo', 'to-create-video', PARTNER_MERCHANT, { hidden: true }),
  r('creation', 'resource', 'resource', PARTNER_MERCHANT),
  r('creation', 'clip', 'clip', PARTNER_MERCHANT, { clipFeature: true }),
  r('creation', 'mixedTask', 'mixed-task', PARTNER_MERCHANT),
  r('creation', 'mixedshear', 'mixedshear', PARTNER_MERCHANT, {
    hidden: true,
    activeMenu: 'clip',
    clipFeature: true,
  }),
  r('digital-human', 'imageClone', 'image-clone', PARTNER_MERCHANT),
  r('digital-human', 'soundClone', 'sound-clone', PARTNER_MERCHANT),
  r('digital-human', 'digitalVideo', 'digital-video', PARTNER_MERCHANT),
  r('digital-human', 'createVideo', 'create-video', PARTNER_MERCHANT, {
    hidden: true,
    activeMenu: 'digitalVideo',
  }),
  r('digital-human', 'myCreation', 'my-creation', PARTNER_MERCHANT, {
    hidden: true,
    activeMenu: 'digitalVideo',
  }),
  // Video templates (docs/domain.md §10): the admin the platform's, the others theirs too.
  r('digital-human', 'videoTemplate', 'video-template', ['admin', 'partner', 'merchant']),
  r('matrix-distribution', 'authorization', 'authorization', PARTNER_MERCHANT),
  r('matrix-distribution', 'releasePlan', 'release-plan', PARTNER_MERCHANT),
  r('matrix-distribution', 'videoData', 'video-data', PARTNER_MERCHANT),
  r('promotion', 'allMerchant', 'all-merchant', ADMIN, { hidden: true }),
  r('promotion', 'merchant', 'merchant', ADMIN_PARTNER),
  r('promotion', 'partner', 'partner', ADMIN_PARTNER),
  r('promotion', 'agent', 'agent', ADMIN_PARTNER),
  r('promotion', 'tree', 'tree', ADMIN_PARTNER),
  r('promotion', 'cardPassword', 'card-password', ADMIN_PARTNER),
  r('account', 'accountSettings', 'settings', ADMIN_PARTNER),
  r('account', 'property', 'property', ['admin', 'partner', 'merchant']),
  r('account', 'voiceRecord', 'voice-record', ADMIN),
  r('account', 'recharge', 'recharge', ADMIN),
  r('account', 'rechargeOrder', 'recharge-order', ADMIN_PARTNER),
  r('account', 'systemInit', 'system-init', ADMIN),
  r('account', 'auditLog', 'audit', ADMIN_PARTNER),
  r('domain', 'domainList', 'domainList', ADMIN),
  r('protocol', 'article', 'article', ADMIN_PARTNER),
  r('protocol', 'agreement', 'agreement', ADMIN_PARTNER),
  r('ai-tool', 'aiToolIndex', 'ai-tool-index', ADMIN),
  r('user', 'userInfo', 'info', '*'),
  // A form of the user's own data: shown afresh whenever its tab is shown again.
  r('user', 'userSetting', 'setting', '*', { ignoreCache: true }),
  r('exception', 'exception403', '403', ADMIN),
  r('exception', 'exception404', '404', '*'),
  r('exception', 'exception500', '500', '*'),
  {
    name: 'login',
    path: '/login',
    titleId: 'route.login',
    roles: '*',
    requiresAuth: false,
    hidden: true,
    noTab: true,
  },
  {
    name: 'batchAuthorization',
    path: '/batchAuthorization',
    titleId: 'route.batchAuthorization',
    roles: '*',
    requiresAuth: false,
    hidden: true,
    noTab: true,
  },
  {
    name: 'redirect',
    path: '/redirect/:path',
    titleId: 'route.redirect',
    roles: '*',
    requiresAuth: true,
    hidden: true,
    noTab: true,
  },
  {
    name: NOT_FOUND_NAME,
    path: '*',
    titleId: 'route.notFound',
    roles: '*',
    requiresAuth: true,
    hidden: true,
    noTab: true,
  },
];

/** Bare paths that redirect (docs/domain.md §13: / → /home/index, /ai-tool → its index; every group to its default). */
export const REDIRECTS: Readonly<Record<string, string>> = Object.fromEntries([
  ['/', DEFAULT_ROUTE],
  ...ROUTE_GROUPS.map((g) => [`/${g.key}`, g.defaultChild]),
]);

/** Route names reachable when menus come from the server even if the server menu omits them. */
export const MENU_WHITE_LIST: readonly string[] = [
  'login',
  'batchAuthorization',
  'redirect',
  NOT_FOUND_NAME,
];

export interface AccessSubject {
  role: Role;
  show_clip_menu?: number;
}

export function hasRole(roles: RouteRoles, role: Role): boolean {
  return roles === '*' || roles.includes(role);
}

/** Spec §2 "Route access": '*' or the user's role is listed (and the clip flag, for clip routes). */
export function canOpen(route: RouteRecord, user: AccessSubject): boolean {
  if (!hasRole(route.roles, user.role)) return false;
  if (route.clipFeature && user.show_clip_menu === 0) return false;
  return true;
}

const byName = new Map(ROUTES.map((route) => [route.name, route]));
const byPath = new Map(
  ROUTES.filter((route) => !route.path.includes(':') && route.path !== '*').map((route) => [
    route.path,
    route,
  ]),
);

export function routeByName(name: string): RouteRecord | undefined {
  return byName.get(name);
}

/** The route a pathname opens (after redirects); the not-found route when nothing matches. */
export function matchRoute(pathname: string): RouteRecord {
  const clean = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const exact = byPath.get(REDIRECTS[clean] ?? clean);
  if (exact) return exact;
  if (/^\/redirect\/.+/.test(clean)) return byName.get('redirect')!;
  return byName.get(NOT_FOUND_NAME)!;
}

/** The first route in table order the user may open and that a menu would list. */
export function firstAllowedRoute(user: AccessSubject): RouteRecord | undefined {
  return ROUTES.find(
    (route) => route.requiresAuth && route.group && !route.hidden && canOpen(route, user),
  );
}

/**
 * The user's home page: the default route when they may open it (the admin), else the first
 * route they may open (partner and merchant: the dashboard's workBench; agent: /user/info).
 * Where login and / lead them, and the tab that "close others" keeps.
 */
export function homeRoute(user: AccessSubject): RouteRecord | undefined {
  const home = matchRoute(DEFAULT_ROUTE);
  return canOpen(home, user) ? home : firstAllowedRoute(user);
}

/** Menu sections with the routes the user may open, in table order (hidden routes never listed). */
export function menuFor(user: AccessSubject): { group: RouteGroup; routes: RouteRecord[] }[] {
  return ROUTE_GROUPS.filter((g) => hasRole(g.menuRoles, user.role))
    .map((group) => ({
      group,
      routes: ROUTES.filter(
        (route) => route.group === group.key && !route.hidden && canOpen(route, user),
      ),
    }))
    .filter((section) => section.routes.length > 0);
}

/**
 * The pages the command palette offers: those the user may open and a menu would list (the user
 * menu's own pages included), never hidden pages (reached from another page) or the exception
 * pages (where errors lead, not places to go).
 */
export function paletteRoutes(user: AccessSubject): RouteRecord[] {
  return ROUTES.filter(
    (route) =>
      route.requiresAuth &&
      route.group !== undefined &&
      route.group !== 'exception' &&
      !route.hidden &&
      canOpen(route, user),
  );
}

/** Every route the user may open, grouped by section, for the server menu (hidden ones flagged). */
export function serverMenuFor(user: AccessSubject): {
  group: RouteGroup;
  listed: boolean;
  routes: RouteRecord[];
}[] {
  return ROUTE_GROUPS.map((group) => ({
    group,
    listed: hasRole(group.menuRoles, user.role),
    routes: ROUTES.filter((route) => route.group === group.key && canOpen(route, user)),
  })).filter((section) => section.routes.length > 0);
}
