import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildApp } from '../../server/app';
import { MissingPolicyError } from '../../server/platform/http/policy';
import { createTestApp, createTestDatabase, engines, type TestApp } from './helpers';

/**
 * The authorisation matrix, written out by hand from docs/domain.md §13/§13, docs/domain.md §2 and
 * docs/decisions.md — deliberately NOT derived from the routes' policies, so a wrong policy fails.
 *   ok  = the call gets past authentication and roles (HTTP 200, code 0 or 1, never 50008)
 *   401 = no usable session
 *   403 = a role (or an overstep session) the call does not admit
 *   4xx = public, past the guard, refused by the call's own check with a 4xx other than 401/403
 *         (payment notifications without a valid signature, sandbox pages without a signed link)
 * Columns: anonymous, admin, partner, partner2, merchant, agent, overstep (admin → merchant).
 */
const IDENTITIES = [
  'anonymous',
  'admin',
  'partner',
  'partner2',
  'merchant',
  'agent',
  'overstep',
] as const;
type Identity = (typeof IDENTITIES)[number];
/**
 * 'ok': HTTP 200 with the envelope (code 1 or a refusal); 200: HTTP 200, not an envelope;
 * 'grant': HTTP 401 for a missing upload grant (the tus endpoint takes no session).
 * 'signature': HTTP 401 for a vendor callback without a valid signature (it takes no session).
 * 302: a redirect (the OAuth callback sends the browser to the accounts page, with the refusal).
 */
type Outcome = 'ok' | 200 | 302 | 401 | 403 | '4xx' | 'grant' | 'signature';

const MATRIX: Record<string, Outcome[]> = {
  //                                         anon  admin partner partner2 merchant agent overstep
  'POST /api/v1/platform/login': /*       */ ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'POST /api/v1/platform/logout': /*      */ ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'POST /api/v1/platform/get_user_info': [401, 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'POST /api/v1/platform/overstep_login': [401, 'ok', 'ok', 'ok', 403, 403, 403],
  'GET /api/v1/platform/get_system_info': ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'GET /api/v1/openapi.json': /*          */ [200, 200, 200, 200, 200, 200, 200],
  'GET /api/v1/platform/get_simple_config': ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  // Settings and prices (docs/domain.md §12): admin and partner; the reads any session.
  'GET /api/v1/platform/get_platform_config': [401, 'ok', 'ok', 'ok', 403, 403, 403],
  'POST /api/v1/platform/set_config': /*  */ [401, 'ok', 'ok', 'ok', 403, 403, 403],
  'GET /api/v1/platform/get_config': /*   */ [401, 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'GET /api/v1/platform/get_single_config': [401, 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'GET /api/v1/user_config/info': /*      */ [401, 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'POST /api/v1/user_config/edit': /*     */ [401, 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'POST /api/v1/platform/change_pwd': /*  */ [401, 'ok', 'ok', 'ok', 'ok', 'ok', 403],
  'POST /api/v1/platform/get_captcha': /* */ ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'POST /api/v1/platform/reset_pwd': /*   */ ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'POST /api/v1/platform/register': /*    */ ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'POST /api/v1/platform/edit_profile': [401, 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'POST /api/v1/api/user/menu': /*        */ [401, 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'GET /api/v1/platform/dashboard_data': [401, 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'GET /api/v1/platform/dashboard_series': [401, 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'GET /api/v1/platform/get_account': /*  */ [401, 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'POST /api/v1/platform/transfer': /*    */ [401, 'ok', 'ok', 'ok', 403, 403, 403],
  'POST /api/v1/platform/edit_transfer_config': [401, 'ok', 'ok', 'ok', 403, 403, 403],
  'POST /api/v1/platform/exchange': /*    */ [401, 'ok', 'ok', 'ok', 'ok', 403, 403],
  'GET /api/v1/platform/user_money_log': [401, 'ok', 'ok', 'ok', 'ok', 403, 'ok'],
  'GET /api/v1/platform/transfer_record': [401, 'ok', 'ok', 'ok', 'ok', 403, 'ok'],
  // Customers: admin and partner only (docs/domain.md §2); an overstep session is a merchant's.
  'GET /api/v1/provider_service': /*      */ [401, 'ok', 'ok', 'ok', 403, 403, 403],
  'POST /api/v1/provider_service/add': /* */ [401, 'ok', 403, 403, 403, 403, 403],
  'POST /api/v1/provider_service/edit': [401, 'ok', 403, 403, 403, 403, 403],
  'POST /api/v1/provider_service/add_by_service': [401, 403, 'ok', 'ok', 403, 403, 403],
  'POST /api/v1/provider_service/edit_by_service': [401, 403, 'ok', 'ok', 403, 403, 403],
  'POST /api/v1/provider_service/edit_account': [401, 'ok', 'ok', 'ok', 403, 403, 403],
  'POST /api/v1/provider_service/edit_type': [401, 'ok', 403, 403, 403, 403, 403],
  'POST /api/v1/provider_service/delete': [401, 'ok', 'ok', 'ok', 403, 403, 403],
  // prettier-ignore
  'GET /api/v1/provider_service/used_service_prefix_no_list': [401, 'ok', 'ok', 'ok', 403, 403, 403],
  'GET /api/v1/platform/platform_user_list': [401, 'ok', 'ok', 'ok', 403, 403, 403],
  // Recharge cards: admin and partner issue; partner and merchant redeem; whoever may hold
  // cards lists them; the export download is public (its single-use ticket is the credential).
  'POST /api/v1/recharge_card/add': /*    */ [401, 'ok', 'ok', 'ok', 403, 403, 403],
  'POST /api/v1/recharge_card/transfer_card': [401, 'ok', 'ok', 'ok', 403, 403, 403],
  'POST /api/v1/recharge_card/use_card': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/recharge_card/remark_card': [401, 'ok', 'ok', 'ok', 403, 403, 403],
  'POST /api/v1/recharge_card/edit_card': [401, 'ok', 'ok', 'ok', 403, 403, 403],
  'POST /api/v1/recharge_card/batch_del': [401, 'ok', 'ok', 'ok', 403, 403, 403],
  'GET /api/v1/recharge_card/card_list': [401, 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  // prettier-ignore
  'GET /api/v1/recharge_card/can_operate_card_list': [401, 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'POST /api/v1/recharge_card/export_ticket': [401, 'ok', 'ok', 'ok', 403, 403, 403],
  'GET /api/v1/recharge_card/export_data': ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  // Recharge packages and orders: admin manages packages; partners and merchants (the
  // balance holders) buy; orders are listed by admin and partner, polled by their owners.
  'GET /api/v1/recharge_package/list': [401, 'ok', 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/recharge_package/add': [401, 'ok', 403, 403, 403, 403, 403],
  'POST /api/v1/recharge_package/edit': [401, 'ok', 403, 403, 403, 403, 403],
  'POST /api/v1/recharge_package/sort': [401, 'ok', 403, 403, 403, 403, 403],
  'POST /api/v1/recharge_package/set_status': [401, 'ok', 403, 403, 403, 403, 403],
  'POST /api/v1/recharge_package/delete': [401, 'ok', 403, 403, 403, 403, 403],
  'POST /api/v1/recharge_order/create': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'GET /api/v1/recharge_order/detail': [401, 'ok', 'ok', 'ok', 'ok', 403, 'ok'],
  'GET /api/v1/recharge_order/list': [401, 'ok', 'ok', 'ok', 'ok', 403, 'ok'],
  // The sandbox payment provider: its pages and the notification endpoint are public.
  'GET /api/v1/pay/sandbox/checkout': ['4xx', '4xx', '4xx', '4xx', '4xx', '4xx', '4xx'],
  'POST /api/v1/pay/sandbox/pay': ['4xx', '4xx', '4xx', '4xx', '4xx', '4xx', '4xx'],
  'POST /api/v1/pay/notify/sandbox': ['4xx', '4xx', '4xx', '4xx', '4xx', '4xx', '4xx'],
  // The resource library: partners and merchants, each its own (docs/domain.md §2).
  'GET /api/v1/resource/list': /*        */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/resource/add': /*        */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/resource/edit': /*       */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/resource/delete': /*     */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'GET /api/v1/resource/group_list': /*  */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/resource/group_add': /*  */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/resource/group_edit': /* */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/resource/group_delete': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  // Video tasks: partners and merchants, each its own (docs/domain.md §2).
  'POST /api/v1/video_task/estimate': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/video_task/add': /*     */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'GET /api/v1/video_task/list': /*     */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'GET /api/v1/video_task/detail': /*   */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/video_task/retry': /*   */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/video_task/cancel': /*  */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/video_task/delete': /*  */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'GET /api/v1/video_task/source': /*   */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/video_task/batch_estimate': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/video_task/batch_add': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/video_task_preset/save': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'GET /api/v1/video_task_preset/list': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'GET /api/v1/video_task_preset/detail': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/video_task_preset/delete': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/video_task/preview': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'GET /api/v1/video_task/preview_detail': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  // A signed link (download_all_url) and nothing else opens a task's ZIP: without one, 404.
  'GET /api/v1/video_task/download_all': ['4xx', '4xx', '4xx', '4xx', '4xx', '4xx', '4xx'],
  // Digital-human videos: partners and merchants, each its own (docs/domain.md §2).
  'POST /api/v1/digital_human/video_estimate': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/digital_human/video_add': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'GET /api/v1/digital_human/video_list': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'GET /api/v1/digital_human/video_detail': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/digital_human/video_rename': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/digital_human/video_delete': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/digital_human/video_resubmit': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  // Video templates: the admin changes the platform's, partners and merchants their own.
  'GET /api/v1/digital_human/template_list': [401, 'ok', 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/digital_human/template_add': [401, 'ok', 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/digital_human/template_edit': [401, 'ok', 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/digital_human/template_delete': [401, 'ok', 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/digital_human/template_from_video': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  // AI titles for matrix distribution: partners and merchants (nothing stored).
  // Matrix distribution: partners and merchants, each its own accounts and plans; the OAuth
  // callback is public (its signed single-use state names who asked) and answers a redirect.
  'POST /api/v1/matrix/auth_url': /*      */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'GET /api/v1/matrix/oauth_callback': /* */ [302, 302, 302, 302, 302, 302, 302],
  'GET /api/v1/matrix/account_list': /*   */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/matrix/account_refresh': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/matrix/account_delete': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/matrix/account_move': /*  */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'GET /api/v1/matrix/account_group_list': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/matrix/account_group_add': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/matrix/account_group_edit': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/matrix/account_group_delete': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/matrix/plan_preview': /*  */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/matrix/plan_add': /*      */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/matrix/plan_edit': /*     */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'GET /api/v1/matrix/plan_media_list': /* */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'GET /api/v1/matrix/plan_list': /*      */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'GET /api/v1/matrix/plan_detail': /*    */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/matrix/plan_pause': /*    */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/matrix/plan_resume': /*   */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/matrix/plan_cancel': /*   */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'GET /api/v1/matrix/post_list': /*      */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/matrix/post_publish_now': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/matrix/post_retry': /*    */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'GET /api/v1/matrix/video_data': /*     */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/matrix/account_add_assisted': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/matrix/post_mark_published': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/matrix/batch_link_add': /* */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'GET /api/v1/matrix/batch_link_list': /* */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/matrix/batch_link_revoke': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  // The batch link's public page: the token is the credential (refused without one).
  'GET /api/v1/matrix/batch_link_info': /* */ ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'POST /api/v1/matrix/batch_auth_url': /* */ ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'POST /api/v1/matrix/ai_imitate_title': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  // Domains and their brands (docs/domain.md §12): admin only.
  'GET /api/v1/domain/list': /*           */ [401, 'ok', 403, 403, 403, 403, 403],
  'POST /api/v1/domain/add': /*           */ [401, 'ok', 403, 403, 403, 403, 403],
  'POST /api/v1/domain/edit': /*          */ [401, 'ok', 403, 403, 403, 403, 403],
  'POST /api/v1/domain/delete': /*        */ [401, 'ok', 403, 403, 403, 403, 403],
  // System init (docs/domain.md §System init): admin only; secrets write-only.
  'GET /api/v1/init_config/get_config': [401, 'ok', 403, 403, 403, 403, 403],
  'POST /api/v1/init_config/set_config': [401, 'ok', 403, 403, 403, 403, 403],
  'POST /api/v1/init_config/upload_cert': [401, 'ok', 403, 403, 403, 403, 403],
  'POST /api/v1/init_config/test': /*     */ [401, 'ok', 403, 403, 403, 403, 403],
  // Articles and agreements (docs/domain.md §24): admin and partner write; every session reads;
  // an agreement's text is public (the login form links it); a login-as session accepts nothing.
  'GET /api/v1/article/list': /*          */ [401, 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'GET /api/v1/article/detail': /*        */ [401, 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  // The help centre and the notices: every session reads the domain's published articles.
  'GET /api/v1/article/published': /*     */ [401, 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'POST /api/v1/article/add': /*          */ [401, 'ok', 'ok', 'ok', 403, 403, 403],
  'POST /api/v1/article/edit': /*         */ [401, 'ok', 'ok', 'ok', 403, 403, 403],
  'POST /api/v1/article/delete': /*       */ [401, 'ok', 'ok', 'ok', 403, 403, 403],
  'GET /api/v1/agreement/list': /*        */ [401, 'ok', 'ok', 'ok', 403, 403, 403],
  'GET /api/v1/agreement/detail': /*      */ ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'GET /api/v1/agreement/pending': /*     */ [401, 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'POST /api/v1/agreement/save': /*       */ [401, 'ok', 'ok', 'ok', 403, 403, 403],
  'POST /api/v1/agreement/accept': /*     */ [401, 'ok', 'ok', 'ok', 'ok', 'ok', 403],
  // AI tools, industries, scripts (docs/domain.md §23): admin manages; the creators read.
  'GET /api/v1/ai_tool/list': /*          */ [401, 'ok', 403, 403, 403, 403, 403],
  'POST /api/v1/ai_tool/add': /*          */ [401, 'ok', 403, 403, 403, 403, 403],
  'POST /api/v1/ai_tool/edit': /*         */ [401, 'ok', 403, 403, 403, 403, 403],
  'POST /api/v1/ai_tool/delete': /*       */ [401, 'ok', 403, 403, 403, 403, 403],
  'POST /api/v1/ai_tool/try': /*          */ [401, 'ok', 403, 403, 403, 403, 403],
  'GET /api/v1/platform/industry': /*     */ [401, 'ok', 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/industry/add': /*         */ [401, 'ok', 403, 403, 403, 403, 403],
  'POST /api/v1/industry/edit': /*        */ [401, 'ok', 403, 403, 403, 403, 403],
  'POST /api/v1/industry/delete': /*      */ [401, 'ok', 403, 403, 403, 403, 403],
  'GET /api/v1/platform/script': /*       */ [401, 'ok', 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/script/add': /*           */ [401, 'ok', 403, 403, 403, 403, 403],
  'POST /api/v1/script/edit': /*          */ [401, 'ok', 403, 403, 403, 403, 403],
  'POST /api/v1/script/delete': /*        */ [401, 'ok', 403, 403, 403, 403, 403],
  // The vendor's callback: public, its signature is the credential (none here: refused).
  'POST /api/v1/digital_human/vendor_callback': [
    'signature',
    'signature',
    'signature',
    'signature',
    'signature',
    'signature',
    'signature',
  ],
  // Digital-human clones: partners and merchants clone; admin lists every user's.
  'POST /api/v1/digital_human/image_clone_add': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'GET /api/v1/digital_human/image_clone_list': [401, 'ok', 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/digital_human/image_clone_delete': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/digital_human/voice_clone_add': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'GET /api/v1/digital_human/voice_clone_list': [401, 'ok', 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/digital_human/voice_clone_delete': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/digital_human/voice_preview': [401, 'ok', 'ok', 'ok', 'ok', 403, 'ok'],
  'GET /api/v1/platform/platform_voice_clone_list': [401, 'ok', 403, 403, 403, 403, 403],
  // The integrations' settings (docs/architecture.md §Secrets): admin only; secrets write-only.
  'GET /api/v1/integration/list': /*     */ [401, 'ok', 403, 403, 403, 403, 403],
  'POST /api/v1/integration/set_secret': [401, 'ok', 403, 403, 403, 403, 403],
  'POST /api/v1/integration/clear_secret': [401, 'ok', 403, 403, 403, 403, 403],
  // The audit log: admin (every row) and partners (their subtree's rows).
  'GET /api/v1/audit/list': /*            */ [401, 'ok', 'ok', 'ok', 403, 403, 403],
  'GET /api/v1/audit/actions': /*         */ [401, 'ok', 'ok', 'ok', 403, 403, 403],
  'POST /api/v1/audit/export_ticket': /*   */ [401, 'ok', 'ok', 'ok', 403, 403, 403],
  'GET /api/v1/audit/export_data': /*     */ ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  // Notifications (docs/domain.md §18): everyone signed in, own rows only; a login-as session
  // looks at the merchant's but does not mark them read.
  'GET /api/v1/notification/list': /*    */ [401, 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'GET /api/v1/notification/unread_count': [401, 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
  'POST /api/v1/notification/read': /*   */ [401, 'ok', 'ok', 'ok', 'ok', 'ok', 403],
  // The job runner's counts: admin only.
  'GET /api/v1/jobs/stats': /*           */ [401, 'ok', 403, 403, 403, 403, 403],
  // Stored files: public, the signed URL is the credential; unsigned → 404.
  'GET /api/v1/files/*': /*               */ ['4xx', '4xx', '4xx', '4xx', '4xx', '4xx', '4xx'],
  // Uploads: partners and merchants (those with a library) and a merchant's
  // overstep session; the tus endpoint takes the grant of generate_sts_token, never a session.
  'GET /api/v1/upload/generate_sts_token': [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'GET /api/v1/upload/part_urls': /*      */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/upload/complete': /*      */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'GET /api/v1/upload/quota': /*          */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  'POST /api/v1/upload/oss_upload': /*    */ [401, 403, 'ok', 'ok', 'ok', 403, 'ok'],
  // Platform images (docs/domain.md §8): the admin's (logos, favicons, content) and a partner's
  // own content images; anyone reads a recorded one (an unknown name: 404).
  'POST /api/v1/upload/platform_image': [401, 'ok', 'ok', 'ok', 403, 403, 403],
  'GET /api/v1/images/:name': /*          */ ['4xx', '4xx', '4xx', '4xx', '4xx', '4xx', '4xx'],
  // prettier-ignore
  'POST /api/v1/upload/tus': /*           */ ['grant', 'grant', 'grant', 'grant', 'grant', 'grant', 'grant'],
  // prettier-ignore
  'HEAD /api/v1/upload/tus/*': /*         */ ['grant', 'grant', 'grant', 'grant', 'grant', 'grant', 'grant'],
  // prettier-ignore
  'PATCH /api/v1/upload/tus/*': /*        */ ['grant', 'grant', 'grant', 'grant', 'grant', 'grant', 'grant'],
  // prettier-ignore
  'DELETE /api/v1/upload/tus/*': /*       */ ['grant', 'grant', 'grant', 'grant', 'grant', 'grant', 'grant'],
};

describe.each(engines)('authorisation on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(async () => {
    await t.close();
  });

  /**
   * One session per identity, made again after a route that ends sessions (logout) was called: a
   * login is an argon2 verify, and a fresh one per cell was most of this file's time. A call that
   * spoiled a session otherwise would show as a 401 in the next cell, never pass unseen.
   */
  const sessions = new Map<Identity, Promise<string | undefined>>();
  async function login(identity: Identity): Promise<string | undefined> {
    if (identity === 'anonymous') return undefined;
    if (identity !== 'overstep') return t.login(identity);
    const reply = await t.post<{ userinfo: { token: string } }>(
      '/platform/overstep_login',
      { merchant_id: (await t.user('merchant')).id },
      await t.login('admin'),
    );
    return reply.body.data.userinfo.token;
  }
  function tokenFor(identity: Identity): Promise<string | undefined> {
    if (!sessions.has(identity)) sessions.set(identity, login(identity));
    return sessions.get(identity)!;
  }

  for (const [route, outcomes] of Object.entries(MATRIX)) {
    it(`${route}: ${IDENTITIES.map((id, i) => `${id} ${outcomes[i]}`).join(', ')}`, async () => {
      const [method, url] = route.split(' ') as ['GET' | 'POST', string];
      if (url.includes('logout')) onTestFinished(() => sessions.clear());
      for (const [i, identity] of IDENTITIES.entries()) {
        const expected = outcomes[i];
        const token = await tokenFor(identity);
        // An empty payload: enough to pass or fail the guard, never enough to change anything.
        const reply = await t.call(method, url, {
          token,
          ...(method === 'POST' ? { body: {} } : {}),
          headers: { lang: 'en-US' },
        });
        const where = `${route} as ${identity}`;
        if (expected === 'ok') {
          expect(reply.status, where).toBe(200);
          expect([0, 1], where).toContain(reply.body.code);
        } else if (expected === 200 || expected === 302) {
          expect(reply.status, where).toBe(expected);
        } else if (expected === 'grant') {
          expect(reply.status, where).toBe(401);
          if ((method as string) !== 'HEAD') {
            expect(reply.body, where).toEqual({
              code: 0,
              msg: 'The upload permission is invalid or has expired: start the upload again',
              data: null,
            });
          }
        } else if (expected === 'signature') {
          expect(reply.status, where).toBe(401);
          expect(reply.body, where).toEqual({
            code: 0,
            msg: 'The callback’s signature is not valid',
            data: null,
          });
        } else if (expected === '4xx') {
          expect(reply.status, where).toBeGreaterThanOrEqual(400);
          expect(reply.status, where).toBeLessThan(500);
          expect([401, 403], where).not.toContain(reply.status);
        } else {
          expect(reply.status, where).toBe(expected);
          expect(reply.body, where).toEqual({
            code: 0,
            msg:
              expected === 401
                ? 'Login expired, please log in again'
                : 'You do not have permission for this action',
            data: null,
          });
        }
      }
    });
  }

  it('every registered /api route has a policy and a row in the matrix (and no row is stale)', () => {
    const registered = t.app.apiRoutes.map((r) => `${r.method} ${r.url}`).sort();
    expect(registered.length).toBeGreaterThan(0);
    for (const route of t.app.apiRoutes) {
      expect(route.policy, `${route.method} ${route.url}`).toBeDefined();
    }
    expect(registered).toEqual(Object.keys(MATRIX).sort());
    expect(new Set(registered).size).toBe(registered.length);
  });
});

describe.each(engines)('start-up refuses routes without a policy on %s', (engine) => {
  it('rejects an /api route without config.policy', async () => {
    const database = await createTestDatabase(engine);
    try {
      const build = buildApp({
        logger: false,
        db: database.handle,
        config: { dataDir: database.dataDir, staticDir: database.dataDir },
        extraApiRoutes: (api) => {
          api.post('/platform/forgotten', async () => ({ code: 1 }));
        },
      });
      await expect(build).rejects.toThrow(MissingPolicyError);
      await expect(build).rejects.toThrow(/POST \/api\/v1\/platform\/forgotten has no policy/);
    } finally {
      await database.drop();
    }
  });

  it('rejects a policy with roles that do not exist', async () => {
    const database = await createTestDatabase(engine);
    try {
      const build = buildApp({
        logger: false,
        db: database.handle,
        config: { dataDir: database.dataDir, staticDir: database.dataDir },
        extraApiRoutes: (api) => {
          api.get(
            '/platform/odd',
            { config: { policy: { roles: ['superuser'] as never } } },
            async () => ({}),
          );
        },
      });
      await expect(build).rejects.toThrow(/has a policy without valid roles/);
    } finally {
      await database.drop();
    }
  });
});
