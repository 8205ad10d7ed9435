/**
 * The voice record area (/account/voice-record, admin): every user's voice clones
 * (`GET /platform/platform_voice_clone_list`: filters user, status, keyword; pages) and the voice
 * ledger (the money log, `GET /platform/user_money_log` with asset `digital_voice`: the chosen
 * user's, else the admin's own), with the users to choose from. Choosing a user filters both.
 */
import type { VoiceClone } from '../../api/contract/digital-human';
import type { PlatformUserPage } from '../../api/contract/customers';
import type { MoneyLogRow } from '../../api/contract/money';
import * as api from '../../api/digital-human-clones';
import * as moneyApi from '../../api/money';
import { defineArea, lazyActors } from './areas';
import { listActor, loadActor } from './factories';
import { cloneQuery, CLONE_PAGE_SIZE, type CloneFilters } from './digital-human-clones';
import { ledgerQuery, NO_LEDGER_FILTERS, type LedgerFilters } from './money';

export interface VoiceRecordEndpoints {
  getPlatformVoiceClones: typeof api.getPlatformVoiceClones;
  getMoneyLog: typeof moneyApi.getMoneyLog;
  getPlatformUsers: typeof moneyApi.getPlatformUsers;
}

export interface VoiceRecordFilters extends CloneFilters {
  /** '' every user. */
  user: string;
}
export const NO_VOICE_RECORD_FILTERS: VoiceRecordFilters = { user: '', status: '', keyword: '' };

/** Users offered by the user filter (the most the picker call gives). */
const USER_CHOICES = 50;

function createVoiceRecordActors(e: VoiceRecordEndpoints) {
  /** The user chosen in the clones' filters ('' none): whose voice ledger shows. */
  let ledgerUser = '';
  return lazyActors(
    {
      clones: () =>
        listActor<VoiceRecordFilters, VoiceClone>(
          'platformVoiceClones',
          ({ filters, page, limit }, signal) =>
            e.getPlatformVoiceClones(
              {
                ...cloneQuery(filters),
                ...(filters.user ? { user_id: Number(filters.user) } : {}),
                page,
                limit,
              },
              { signal },
            ),
          NO_VOICE_RECORD_FILTERS,
          CLONE_PAGE_SIZE,
        ),
      ledger: () =>
        listActor<LedgerFilters, MoneyLogRow>(
          'voiceLedger',
          ({ filters, page, limit }, signal) =>
            e.getMoneyLog(
              {
                ...ledgerQuery(filters),
                asset: 'digital_voice',
                ...(ledgerUser ? { user_id: Number(ledgerUser) } : {}),
                page,
                limit,
              },
              { signal },
            ),
          NO_LEDGER_FILTERS,
        ),
      users: () =>
        loadActor<PlatformUserPage>('voiceRecordUsers', (signal) =>
          e.getPlatformUsers({ page: 1, limit: USER_CHOICES }, { signal }),
        ),
    },
    (_all, started) => ({
      // The user chosen for the clones is the ledger's too.
      clones: (clones) => [
        clones.subscribe((s) => {
          const next = s.context.query.filters.user;
          if (next === ledgerUser) return;
          ledgerUser = next;
          const ledger = started('ledger');
          const filters = ledger?.getSnapshot().context.query.filters;
          // Back to the first page of the new user's ledger.
          if (ledger && filters) ledger.send({ type: 'SET_FILTERS', filters: { ...filters } });
        }),
      ],
    }),
  );
}

export type VoiceRecordActors = ReturnType<typeof createVoiceRecordActors>;

export const voiceRecordArea = defineArea<VoiceRecordEndpoints, VoiceRecordActors>({
  key: 'voiceRecord',
  live: () => ({
    getPlatformVoiceClones: api.getPlatformVoiceClones,
    getMoneyLog: moneyApi.getMoneyLog,
    getPlatformUsers: moneyApi.getPlatformUsers,
  }),
  create: (endpoints) => createVoiceRecordActors(endpoints),
});
