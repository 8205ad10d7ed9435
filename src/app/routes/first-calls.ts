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
import { dhVideosArea } from '../actors/digital-human-videos';
import { moneyArea } from '../actors/money';
import { resourcesArea } from '../actors/resources';
import { uploadsArea } from '../actors/uploads';

/** Starts the actors a page's view starts first (their getters make and start them). */
export type FirstCalls = (areas: AreaRegistry) => readonly AnyActorRef[];

export const FIRST_CALLS: Readonly<Record<string, FirstCalls>> = {
  property: (areas) => {
    const money = areas.get(moneyArea);
    return [money.account, money.ledger, money.transfers];
  },
  resource: (areas) => {
    const resources = areas.get(resourcesArea);
    return [resources.resources, resources.groups, areas.get(uploadsArea).quota];
  },
  digitalVideo: (areas) => {
    const videos = areas.get(dhVideosArea);
    return [videos.videos, videos.folders];
  },
};
