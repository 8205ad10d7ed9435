/** GET /platform/get_account: own balances (money as a 2-decimal string). */
export interface Account {
  money: string;
  digital_man_seconds: number;
  voice_clone_count: number;
  image_clone_count: number;
}

/** GET /platform/dashboard_data: totals of what the caller may see (admin: the platform). */
export interface DashboardData {
  partners: number;
  agents: number;
  merchants: number;
  users_today: number;
  money: string;
  digital_man_seconds: number;
  voice_clone_count: number;
  image_clone_count: number;
}

/**
 * POST /api/user/menu: every route the caller may open, grouped by menu section, from the one route
 * table. `hidden` entries are reachable but never listed (hidden routes, sections for other roles).
 */
export interface MenuItem {
  name: string;
  path: string;
  titleId: string;
  icon?: string;
  hidden: boolean;
  activeMenu?: string;
  children: MenuItem[];
}
