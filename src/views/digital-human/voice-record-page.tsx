import { Heading, Stack } from '@chakra-ui/react';
import { useMemo, useState } from 'react';
import { CLONE_STATUSES, type CloneStatus as Status } from '../../api/contract/digital-human';
import { useArea } from '../../app/actors/areas';
import {
  NO_VOICE_RECORD_FILTERS,
  voiceRecordArea,
  type VoiceRecordFilters,
} from '../../app/actors/voice-record';
import { useListActor } from '../../app/hooks/use-list';
import { useLoadActor } from '../../app/hooks/use-load';
import { useMoneyName } from '../../app/hooks/use-money-name';
import { DataTable } from '../../components/data-table';
import { FilterBar, FilterSelect, FilterText } from '../../components/filter-bar';
import { Page } from '../../components/page';
import { LedgerSection } from '../shared/ledger-section';
import { CLONE_STATUS_LABEL, useT } from './clone-parts';
import { voiceColumns } from './sound-clone-page';

/**
 * /account/voice-record (admin): every user's voice clones (filters user, status, keyword; the
 * owner's column) and the voice ledger (the money log's `digital_voice` rows, the ledger section
 * of /account/property): the chosen user's, else the admin's own. The voice record area owns the
 * calls; this view selects and sends.
 */
export default function VoiceRecordPage() {
  const t = useT();
  const moneyName = useMoneyName();
  const area = useArea(voiceRecordArea);
  const clones = useListActor(area.clones);
  const ledger = useListActor(area.ledger);
  const users = useLoadActor(area.users);
  const applied = clones.query.filters;
  const [draft, setDraft] = useState<VoiceRecordFilters>(applied);
  const columns = useMemo(() => voiceColumns(t, null, true), [t]);
  const userOptions = (users.data?.list ?? []).map((u) => ({
    value: String(u.id),
    label: u.name && u.name !== u.username ? `${u.name} (${u.username})` : u.username,
  }));
  return (
    <Page title={t('route.voiceRecord')}>
      <Stack gap="4" as="section" aria-labelledby="voice-record-clones">
        <Heading as="h2" size="md" id="voice-record-clones">
          {t('voiceRecord.clones')}
        </Heading>
        <FilterBar
          label={t('voiceRecord.filters')}
          onApply={() => clones.setFilters(draft)}
          onReset={() => {
            setDraft(NO_VOICE_RECORD_FILTERS);
            clones.setFilters(NO_VOICE_RECORD_FILTERS);
          }}
        >
          <FilterSelect
            label={t('voiceRecord.user')}
            value={draft.user}
            onChange={(user) => setDraft((d) => ({ ...d, user }))}
            options={userOptions}
          />
          <FilterSelect
            label={t('dhClones.status')}
            value={draft.status}
            onChange={(status) => setDraft((d) => ({ ...d, status: status as Status | '' }))}
            options={CLONE_STATUSES.map((s) => ({ value: s, label: t(CLONE_STATUS_LABEL[s]) }))}
          />
          <FilterText
            label={t('dhClones.keyword')}
            value={draft.keyword}
            onChange={(keyword) => setDraft((d) => ({ ...d, keyword }))}
          />
        </FilterBar>
        <DataTable
          label={t('voiceRecord.clones')}
          testId="voice-record"
          columns={columns}
          rowKey={(r) => r.id}
          emptyText={t('dhClones.voiceEmpty')}
          {...clones.table}
        />
      </Stack>
      <Stack gap="4" as="section" aria-labelledby="voice-record-ledger">
        <Heading as="h2" size="md" id="voice-record-ledger">
          {t('voiceRecord.ledger')}
        </Heading>
        <LedgerSection list={ledger} moneyName={moneyName} assets={['digital_voice']} />
      </Stack>
    </Page>
  );
}
