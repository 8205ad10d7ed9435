import {
  Alert,
  Badge,
  Button,
  Checkbox,
  CloseButton,
  HStack,
  Image,
  Stack,
  Text,
  Wrap,
} from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import { useSearchParams } from 'react-router-dom';
import {
  ACCOUNT_STATUSES,
  SOCIAL_PLATFORMS,
  type AccountStatus,
  type MatrixAccount,
  type SocialPlatformId,
} from '../../api/contract/matrix';
import { useArea } from '../../app/actors/areas';
import {
  matrixArea,
  NO_ACCOUNT_FILTERS,
  type AccountFilters,
  type AccountGroupFilter,
  type MatrixActors,
} from '../../app/actors/matrix';
import { useListActor } from '../../app/hooks/use-list';
import { DataTable, type Column } from '../../components/data-table';
import { FilterBar, FilterSelect, FilterText } from '../../components/filter-bar';
import { Page } from '../../components/page';
import { formatText } from '../../i18n/intl';
import type { MessageId } from '../../i18n/messages';
import type { Notice } from '../../machines/matrix-accounts';
import { useT, type T } from '../shared/use-t';
import { AccountGroups } from './account-groups';
import {
  BindDialog,
  DeleteDialog,
  GroupAddDialog,
  GroupDeleteDialog,
  GroupRenameDialog,
  MoveDialog,
  PLATFORM_LABEL,
} from './account-dialogs';
import { BatchLinksButton, BatchLinksPanel } from './batch-links-panel';

/** Each status's text and colour (a badge: readable in both themes). */
const STATUS: Record<AccountStatus, { label: MessageId; palette: string }> = {
  normal: { label: 'matrix.statusNormal', palette: 'green' },
  expiring: { label: 'matrix.statusExpiring', palette: 'orange' },
  expired: { label: 'matrix.statusExpired', palette: 'red' },
  revoked: { label: 'matrix.statusRevoked', palette: 'gray' },
};

/** Statuses whose account should be authorised again. */
const NEEDS_REAUTH: readonly AccountStatus[] = ['expiring', 'expired', 'revoked'];
/** Statuses whose tokens can still be refreshed. */
const REFRESHABLE: readonly AccountStatus[] = ['normal', 'expiring'];

/** Where the platform sends the person back: `?bound=<id>` or `?error=<message id>`. */
const BOUND_PARAM = 'bound';
const ERROR_PARAM = 'error';

/**
 * /matrix-distribution/authorization (partner, merchant): the caller's authorised social
 * accounts. Bind a Douyin account (the browser goes to Douyin and comes back here with `?bound=`
 * or `?error=`, said in a notice, then taken out of the address), groups beside a table of
 * accounts (status, token expiry, last refresh and error), filters, refresh now, authorise again,
 * move, multi-select delete and move. The matrix area owns the calls and the reloads; this view
 * selects and sends.
 */
export default function AuthorizationPage() {
  const t = useT();
  const area = useArea(matrixArea);
  const list = useListActor(area.accounts);
  const applied = list.query.filters;
  const page = area.page;
  const selected = useSelector(page, (s) => s.context.selected);
  const anySelected = useSelector(page, (s) => s.hasTag('selected'));
  const groups = useSelector(area.groups, (s) => s.context.data?.list ?? null) ?? [];
  usePlatformReturn((bound, error) => page.send({ type: 'RETURNED', bound, error }));

  const setFilters = (next: Partial<AccountFilters>) => list.setFilters({ ...applied, ...next });
  const filtered =
    applied.platform !== '' ||
    applied.status !== '' ||
    applied.keyword.trim() !== '' ||
    applied.group !== 'all';
  const ids = list.rows.map((r) => r.id);
  const allOnPage = ids.length > 0 && ids.every((id) => selected.includes(id));
  const someOnPage = ids.some((id) => selected.includes(id));
  const selection = { ids: selected, name: null, groupId: null };

  return (
    <Page
      title={t('route.authorization')}
      actions={
        <HStack gap="2">
          <BatchLinksButton />
          <Button size="sm" onClick={() => page.send({ type: 'OPEN_BIND' })}>
            {t('matrix.bindAccount')}
          </Button>
        </HStack>
      }
    >
      <PageNotice page={page} />
      <Stack direction={{ base: 'column', md: 'row' }} gap="6" alignItems="flex-start">
        <AccountGroups
          area={area}
          current={applied.group}
          onChoose={(group: AccountGroupFilter) => setFilters({ group })}
        />
        <Stack gap="3" flex="1" minWidth="0">
          <AccountFilterBar
            key={`${applied.platform}:${applied.status}:${applied.keyword}`}
            applied={applied}
            onApply={(next) => setFilters(next)}
          />
          <Wrap gap="2" role="group" aria-label={t('matrix.toolbar')} alignItems="center">
            <Checkbox.Root
              size="sm"
              checked={allOnPage ? true : someOnPage ? 'indeterminate' : false}
              disabled={ids.length === 0}
              onCheckedChange={(e) =>
                e.checked === true
                  ? page.send({ type: 'SELECT_PAGE', ids })
                  : page.send({ type: 'CLEAR' })
              }
            >
              <Checkbox.HiddenInput />
              <Checkbox.Control />
              <Checkbox.Label>{t('matrix.selectPage')}</Checkbox.Label>
            </Checkbox.Root>
            <Button
              size="sm"
              variant="outline"
              disabled={!anySelected}
              onClick={() => area.move.send({ type: 'OPEN', target: selection })}
            >
              {t('matrix.moveSelected', { count: selected.length })}
            </Button>
            <Button
              size="sm"
              variant="outline"
              disabled={!anySelected}
              onClick={() => area.remove.send({ type: 'OPEN', target: selection })}
            >
              {t('matrix.deleteSelected', { count: selected.length })}
            </Button>
            <Button
              size="sm"
              variant="ghost"
              disabled={!anySelected}
              onClick={() => page.send({ type: 'CLEAR' })}
            >
              {t('matrix.clearSelection')}
            </Button>
            {filtered && !list.loading && list.rows.length === 0 && (
              <Button
                size="sm"
                variant="outline"
                onClick={() => list.setFilters(NO_ACCOUNT_FILTERS)}
              >
                {t('matrix.clearFilters')}
              </Button>
            )}
          </Wrap>
          <DataTable
            label={t('matrix.list')}
            testId="matrix-accounts"
            columns={useColumns(area, selected, groups)}
            rowKey={(r) => r.id}
            emptyText={t(filtered ? 'matrix.noMatch' : 'matrix.empty')}
            {...list.table}
          />
        </Stack>
      </Stack>
      <BindDialog page={page} groups={groups} />
      <MoveDialog actor={area.move} groups={groups} />
      <DeleteDialog actor={area.remove} />
      <GroupAddDialog actor={area.groupAdd} />
      <GroupRenameDialog actor={area.groupRename} />
      <GroupDeleteDialog actor={area.groupDelete} />
      <BatchLinksPanel groups={groups} />
    </Page>
  );
}

/**
 * Says once what the platform's return (`?bound=` / `?error=`) means, then takes the parameters
 * out of the address (replaced, not pushed): a reload does not say it again.
 */
function usePlatformReturn(onReturn: (bound: number | null, error: string | null) => void) {
  const [search, setSearch] = useSearchParams();
  const bound = search.get(BOUND_PARAM);
  const error = search.get(ERROR_PARAM);
  const handler = useRef(onReturn);
  handler.current = onReturn;
  useEffect(() => {
    if (bound === null && error === null) return;
    const id = Number(bound);
    handler.current(bound !== null && Number.isSafeInteger(id) && id > 0 ? id : null, error);
    setSearch(
      (s) => {
        const next = new URLSearchParams(s);
        next.delete(BOUND_PARAM);
        next.delete(ERROR_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [bound, error, setSearch]);
}

/** The page's one notice (the machine's `notice` region), with a button to dismiss it. */
function PageNotice(props: { page: MatrixActors['page'] }) {
  const intl = useIntl();
  const t = useT();
  const notice: Notice | null = useSelector(props.page, (s) =>
    s.hasTag('notice') ? s.context.notice : null,
  );
  if (!notice) return null;
  const error = notice.tone === 'error';
  return (
    <Alert.Root
      status={error ? 'error' : 'success'}
      role={error ? 'alert' : 'status'}
      data-testid="matrix-notice"
    >
      <Alert.Indicator />
      <Alert.Title flex="1">{formatText(intl, notice.text, notice.values)}</Alert.Title>
      <CloseButton
        size="sm"
        aria-label={t('matrix.dismiss')}
        onClick={() => props.page.send({ type: 'DISMISS' })}
      />
    </Alert.Root>
  );
}

type Filters = Pick<AccountFilters, 'platform' | 'status' | 'keyword'>;

/** Platform, status and nickname: a draft the person edits, applied by Search (back to page 1). */
function AccountFilterBar(props: { applied: AccountFilters; onApply: (next: Filters) => void }) {
  const t = useT();
  const [platform, setPlatform] = useState(props.applied.platform);
  const [status, setStatus] = useState(props.applied.status);
  const [keyword, setKeyword] = useState(props.applied.keyword);
  return (
    <FilterBar
      label={t('matrix.filters')}
      onApply={() => props.onApply({ platform, status, keyword })}
      onReset={() => props.onApply({ platform: '', status: '', keyword: '' })}
    >
      <FilterSelect
        label={t('matrix.platform')}
        value={platform}
        onChange={(v) => setPlatform(v as SocialPlatformId | '')}
        options={SOCIAL_PLATFORMS.map((p) => ({ value: p, label: t(PLATFORM_LABEL[p]) }))}
      />
      <FilterSelect
        label={t('matrix.status')}
        value={status}
        onChange={(v) => setStatus(v as AccountStatus | '')}
        options={ACCOUNT_STATUSES.map((s) => ({ value: s, label: t(STATUS[s].label) }))}
      />
      <FilterText label={t('matrix.keyword')} value={keyword} onChange={setKeyword} />
    </FilterBar>
  );
}

function useColumns(
  area: MatrixActors,
  selected: readonly number[],
  groups: readonly { id: number; name: string }[],
): Column<MatrixAccount>[] {
  const t = useT();
  const intl = useIntl();
  const refreshing = useSelector(area.page, (s) => s.context.refreshing?.id ?? null);
  const busy = refreshing !== null;
  const when = (ms: number | null) =>
    ms === null
      ? t('matrix.never')
      : intl.formatDate(ms, { dateStyle: 'medium', timeStyle: 'short' });
  const groupName = (id: number | null) =>
    (id !== null ? groups.find((g) => g.id === id)?.name : null) ?? t('matrix.ungrouped');
  return [
    {
      key: 'select',
      header: t('matrix.selectPage'),
      cell: (r) => (
        <Checkbox.Root
          size="sm"
          checked={selected.includes(r.id)}
          onCheckedChange={() => area.page.send({ type: 'TOGGLE', id: r.id })}
        >
          <Checkbox.HiddenInput aria-label={t('matrix.select', { name: r.nickname })} />
          <Checkbox.Control />
        </Checkbox.Root>
      ),
    },
    {
      key: 'account',
      header: t('matrix.colAccount'),
      cell: (r) => (
        <HStack gap="2">
          {r.avatar && <Image src={r.avatar} alt="" boxSize="8" rounded="full" />}
          <Text fontWeight="medium">{r.nickname}</Text>
          {r.sandbox && (
            <Badge size="sm" variant="outline" colorPalette="purple">
              {t('matrix.testAccount')}
            </Badge>
          )}
        </HStack>
      ),
    },
    { key: 'platform', header: t('matrix.platform'), cell: (r) => t(PLATFORM_LABEL[r.platform]) },
    {
      key: 'fans',
      header: t('matrix.colFans'),
      align: 'end',
      cell: (r) => intl.formatNumber(r.fans),
    },
    { key: 'group', header: t('matrix.group'), cell: (r) => groupName(r.group_id) },
    {
      key: 'status',
      header: t('matrix.status'),
      cell: (r) => (
        <Badge size="sm" variant="subtle" colorPalette={STATUS[r.status].palette}>
          {t(STATUS[r.status].label)}
        </Badge>
      ),
    },
    { key: 'expires', header: t('matrix.colExpires'), cell: (r) => when(r.expires_at) },
    { key: 'refresh', header: t('matrix.colLastRefresh'), cell: (r) => when(r.last_refresh_at) },
    {
      key: 'error',
      header: t('matrix.colLastError'),
      cell: (r) =>
        r.last_error ? (
          <Text color="fg.error" fontSize="sm">
            {r.last_error}
          </Text>
        ) : (
          <Text color="fg.muted">{t('matrix.noError')}</Text>
        ),
    },
    {
      key: 'actions',
      header: t('matrix.colActions'),
      pinned: 'end',
      cell: (r) => <RowActions area={area} row={r} t={t} refreshing={refreshing} busy={busy} />,
    },
  ];
}

function RowActions(props: {
  area: MatrixActors;
  row: MatrixAccount;
  t: T;
  refreshing: number | null;
  busy: boolean;
}) {
  const { area, row: r, t } = props;
  const one = { ids: [r.id], name: r.nickname, groupId: r.group_id };
  return (
    <HStack gap="1">
      {REFRESHABLE.includes(r.status) && (
        <Button
          size="xs"
          variant="outline"
          aria-label={t('matrix.refreshNowOf', { name: r.nickname })}
          aria-busy={props.refreshing === r.id}
          disabled={props.busy}
          onClick={() => area.page.send({ type: 'REFRESH', id: r.id, name: r.nickname })}
        >
          {t('matrix.refreshNow')}
        </Button>
      )}
      {NEEDS_REAUTH.includes(r.status) && (
        <Button
          size="xs"
          variant="outline"
          colorPalette="orange"
          aria-label={t('matrix.reauthorizeOf', { name: r.nickname })}
          onClick={() =>
            area.page.send({
              type: 'BIND',
              request: { platform: r.platform, groupId: r.group_id },
            })
          }
        >
          {t('matrix.reauthorize')}
        </Button>
      )}
      <Button
        size="xs"
        variant="ghost"
        aria-label={t('matrix.moveOf', { name: r.nickname })}
        onClick={() => area.move.send({ type: 'OPEN', target: one })}
      >
        {t('matrix.move')}
      </Button>
      <Button
        size="xs"
        variant="ghost"
        colorPalette="red"
        aria-label={t('matrix.deleteOf', { name: r.nickname })}
        onClick={() => area.remove.send({ type: 'OPEN', target: one })}
      >
        {t('matrix.delete')}
      </Button>
    </HStack>
  );
}
