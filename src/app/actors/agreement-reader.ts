/**
 * The agreements the login and sign-up forms link (docs/domain.md "Articles and agreements"): the
 * version of each kind in force on this page's domain (a partner's own on its domains, else the
 * platform's), read without a session (`GET /agreement/detail {kind, domain}`). The module loads
 * with the reading dialog, on the first click of a link, never with the login page.
 */
import { createActor, fromPromise } from 'xstate';
import type { Agreement } from '../../api/contract/content';
import * as api from '../../api/content';
import { createLoadMachine } from '../../machines/load';
import { defineArea, lazyActors } from './areas';

/** The kinds the login and sign-up forms link. */
export const LINKED_AGREEMENTS = ['user', 'privacy'] as const;
export type LinkedAgreement = (typeof LINKED_AGREEMENTS)[number];

export interface AgreementReaderEndpoints {
  getAgreementInForce: typeof api.getAgreementInForce;
  /** The host whose agreements are read: this page's (as the sign-up form names it). */
  domain: () => string;
}

function agreementActor(e: AgreementReaderEndpoints, kind: LinkedAgreement) {
  return createActor(
    createLoadMachine<Agreement | null>(`agreement-${kind}`).provide({
      actors: {
        // Quiet: the dialog says what failed and offers Retry, no toast beside it.
        load: fromPromise(({ signal }) =>
          e.getAgreementInForce(kind, e.domain(), { signal, quiet: true }),
        ),
      },
    }),
  );
}

function createReaderActors(e: AgreementReaderEndpoints) {
  return lazyActors({
    user: () => agreementActor(e, 'user'),
    privacy: () => agreementActor(e, 'privacy'),
  });
}

export type AgreementReaderActors = ReturnType<typeof createReaderActors>;

export const agreementReaderArea = defineArea<AgreementReaderEndpoints, AgreementReaderActors>({
  key: 'agreementReader',
  live: () => ({
    getAgreementInForce: api.getAgreementInForce,
    domain: () => window.location.hostname,
  }),
  create: (endpoints) => createReaderActors(endpoints),
});
