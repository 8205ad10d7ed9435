/**
 * The user-agreement prompt (docs/domain.md "Articles and agreements"): once per session the area
 * asks whether the signed-in user has a user-agreement version in force still to accept
 * (`GET /agreement/pending`), and the shell shows it in a dialog until it is accepted
 * (`POST /agreement/accept`), after which it asks again (nothing pending: no dialog).
 */
import type { Agreement } from '../../api/contract/content';
import * as api from '../../api/content';
import { defineArea, lazyActors } from './areas';
import { loadActor, submitActor, whenChanged } from './factories';

export interface AgreementPromptEndpoints {
  getPendingAgreement: typeof api.getPendingAgreement;
  acceptAgreement: typeof api.acceptAgreement;
}

function createPromptActors(e: AgreementPromptEndpoints) {
  return lazyActors(
    {
      // Quiet: a failed ask shows no toast (the prompt is a courtesy; accepting is asked again).
      pending: () =>
        loadActor<Agreement | null>('pendingAgreement', (signal) =>
          e.getPendingAgreement({ signal, quiet: true }),
        ),
      accept: () =>
        submitActor((agreement: Agreement) =>
          e.acceptAgreement({ kind: agreement.kind, version: agreement.version }),
        ),
    },
    (_all, started) => ({
      accept: (accept) => [
        whenChanged(
          accept,
          (s) => s.matches('done'),
          () => {
            accept.send({ type: 'RESET' });
            started('pending')?.send({ type: 'RELOAD' });
          },
        ),
      ],
    }),
  );
}

export type AgreementPromptActors = ReturnType<typeof createPromptActors>;

export const agreementPromptArea = defineArea<AgreementPromptEndpoints, AgreementPromptActors>({
  key: 'agreementPrompt',
  live: () => ({
    getPendingAgreement: api.getPendingAgreement,
    acceptAgreement: api.acceptAgreement,
  }),
  create: (endpoints) => createPromptActors(endpoints),
});
