/**
 * The calls a signed-in page starts with, by route name: the area actors its view starts as it
 * first renders (docs/architecture.md "Signed-in pages in one wave"). Not part of the console's
 * bundle: at build time build/first-calls.ts starts these actors (Vite's SSR loader) against a
 * local server that records the requests they send — so the queries are their machines' own first
 * queries, never a copy — and index.html's inline script (build/preload-routes.ts) sends those
 * requests with the document when a session is stored, beside the page's code. The actors, when
 * the page starts them, read the replies instead of sending again (src/api/http-early.ts).
 *
 * Whether the role may make the call is not known then: a refused call's reply is simply not
 * read, and one the page does not ask for (another role's view, a list the view no longer shows)
 * costs a request, never an error. tests/e2e/one-wave.spec.ts checks that every call listed is
 * read by its page.
 */
import type { AnyActorRef } from 'xstate';
import type { AreaRegistry } from '../actors/areas';
import { auditArea } from '../actors/audit';
import { cardsArea } from '../actors/cards';
import { contentArea } from '../actors/content';
import { customersArea, type CustomerKind } from '../actors/customers';
import { dashboardArea } from '../actors/dashboard';
import { digitalHumanClonesArea } from '../actors/digital-human-clones';
import { dhVideosArea } from '../actors/digital-human-videos';
import { domainsArea } from '../actors/domains';
import { matrixArea } from '../actors/matrix';
import { matrixPlansArea } from '../actors/matrix-plans';
import { moneyArea } from '../actors/money';
import { rechargeArea } from '../actors/recharge';
import { resourcesArea } from '../actors/resources';
import { uploadsArea } from '../actors/uploads';
import { voiceRecordArea } from '../actors/voice-record';
import { aiToolArea } from '../actors/ai-tools';
import { dhTemplatesArea } from '../actors/digital-human-templates';
import { initConfigArea } from '../actors/init-config';
import { matrixVideoDataArea } from '../actors/matrix-video-data';
import { platformSettingsArea } from '../actors/platform-settings';
import { videoTasksArea } from '../actors/video-tasks';
import { INIT_CONFIG_GROUPS } from '../../api/contract/init-config';

/** Starts the actors a page's view starts first (their getters make and start them). */
export type FirstCalls = (areas: AreaRegistry) => readonly AnyActorRef[];

/** A customer page's list (merchant, partner, agent, all merchants). */
const customers =
  (kind: CustomerKind): FirstCalls =>
  (areas) => [areas.get(customersArea).kind(kind).list];

export const FIRST_CALLS: Readonly<Record<string, FirstCalls>> = {
  home: (areas) => {
    const dashboard = areas.get(dashboardArea);
    return [dashboard.totals, dashboard.series];
  },
  workBench: (areas) => {
    const dashboard = areas.get(dashboardArea);
    return [dashboard.workBench, dashboard.series];
  },
  resource: (areas) => {
    const resources = areas.get(resourcesArea);
    return [resources.resources, resources.groups, areas.get(uploadsArea).quota];
  },
  digitalVideo: (areas) => {
    const videos = areas.get(dhVideosArea);
    return [videos.videos, videos.folders];
  },
  myCreation: (areas) => {
    const videos = areas.get(dhVideosArea);
    return [videos.gallery, videos.folders];
  },
  imageClone: (areas) => [areas.get(digitalHumanClonesArea).images],
  soundClone: (areas) => [areas.get(digitalHumanClonesArea).voices],
  authorization: (areas) => {
    const matrix = areas.get(matrixArea);
    return [matrix.accounts, matrix.groups];
  },
  releasePlan: (areas) => [areas.get(matrixPlansArea).plans],
  property: (areas) => {
    const money = areas.get(moneyArea);
    return [money.account, money.ledger, money.transfers];
  },
  recharge: (areas) => [areas.get(rechargeArea).packages],
  rechargeOrder: (areas) => [areas.get(rechargeArea).orders],
  voiceRecord: (areas) => {
    const record = areas.get(voiceRecordArea);
    return [record.clones, record.ledger, record.users];
  },
  cardPassword: (areas) => {
    const cards = areas.get(cardsArea);
    return [cards.cards, cards.filterUsers];
  },
  merchant: customers('merchant'),
  allMerchant: customers('allMerchant'),
  partner: customers('partner'),
  agent: customers('agent'),
  auditLog: (areas) => {
    const audit = areas.get(auditArea);
    return [audit.rows, audit.actions];
  },
  domainList: (areas) => {
    const domains = areas.get(domainsArea);
    return [domains.list, domains.owners];
  },
  mixedTask: (areas) => [areas.get(videoTasksArea).list('mixed')],
  clip: (areas) => [areas.get(videoTasksArea).list('clip')],
  videoTemplate: (areas) => [areas.get(dhTemplatesArea).list],
  // Not the figures themselves: their query is dated from the day the page opens.
  videoData: (areas) => {
    const data = areas.get(matrixVideoDataArea);
    return [data.accounts, data.plans];
  },
  systemInit: (areas) => {
    const config = areas.get(initConfigArea);
    return INIT_CONFIG_GROUPS.map((group) => config[group]);
  },
  accountSettings: (areas) => [areas.get(platformSettingsArea).form],
  aiToolIndex: (areas) => [areas.get(aiToolArea).tools],
  article: (areas) => [areas.get(contentArea).articles],
  agreement: (areas) => [areas.get(contentArea).agreements],
};
