import {
  Badge,
  Box,
  Button,
  Checkbox,
  CloseButton,
  Drawer,
  Heading,
  HStack,
  Image,
  Input,
  Portal,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import type { BatchLink, BatchLinkState } from '../../api/contract/matrix';
import type { ResourceGroup } from '../../api/contract/resources';
import { useArea } from '../../app/actors/areas';
import {
  matrixBatchLinksArea,
  type MatrixBatchLinkActors,
} from '../../app/actors/matrix-batch-links';
import { useListActor } from '../../app/hooks/use-list';
import { CopyButton } from '../../components/copy-button';
import { DataTable, type Column } from '../../components/data-table';
import { FormDialog } from '../../components/form-dialog';
import { FormField } from '../../components/form-field';
import { LoadingSpinner } from '../../components/loading-spinner';
import { FailureAlert } from '../../components/step-dialog';
import { ValidatedForm } from '../../components/validated-form';
import { formatText } from '../../i18n/intl';
import type { MessageId } from '../../i18n/messages';
import { QR_FAILED, type BatchLinkForm } from '../../machines/matrix-batch-links';
import { SelectField } from '../shared/form-parts';
import { useT } from '../shared/use-t';

type Panel = MatrixBatchLinkActors['panel'];

/** Each state's text and colour (a badge: readable in both themes). */
const STATE: Record<BatchLinkState, { label: MessageId; palette: string }> = {
  valid: { label: 'matrix.batchStateValid', palette: 'green' },
  expired: { label: 'matrix.batchStateExpired', palette: 'gray' },
  revoked: { label: 'matrix.batchStateRevoked', palette: 'red' },
  used_up: { label: 'matrix.batchStateUsedUp', palette: 'orange' },
};

/** The accounts page's button that opens the batch authorisation panel. */
export function BatchLinksButton() {
  const t = useT();
  const { panel } = useArea(matrixBatchLinksArea);
  return (
    <Button size="sm" variant="outline" onClick={() => panel.send({ type: 'OPEN' })}>
      {t('matrix.batchOpen')}
    </Button>
  );
}

/**
 * The batch authorisation panel (a drawer; docs/domain.md §19): a form that makes a link
 * (hours, uses or no limit, the accounts' group), the QR code of the link made or chosen (with
 * "Download PNG"), and the caller's links (state, uses, expiry; copy, QR code, revoke after a
 * confirmation). The matrix batch-links area owns the calls and the reloads; this view selects
 * and sends.
 */
export function BatchLinksPanel(props: { groups: ResourceGroup[] }) {
  const t = useT();
  // The list is made (and loads) once the panel first opens: `links` is read in LinkList.
  const { panel } = useArea(matrixBatchLinksArea);
  const open = useSelector(panel, (s) => s.hasTag('panel'));
  if (!open) return null;
  return (
    <>
      <Drawer.Root
        open
        size="lg"
        onOpenChange={(e) => {
          if (!e.open) panel.send({ type: 'CLOSE' });
        }}
      >
        <Portal>
          <Drawer.Backdrop />
          <Drawer.Positioner>
            <Drawer.Content data-testid="batch-links-panel">
              <Drawer.Header>
                <Drawer.Title>{t('matrix.batchTitle')}</Drawer.Title>
              </Drawer.Header>
              <Drawer.Body>
                <Stack gap="6">
                  <Text fontSize="sm" color="fg.muted">
                    {t('matrix.batchIntro')}
                  </Text>
                  <MakeForm panel={panel} groups={props.groups} />
                  <QrCode panel={panel} />
                  <LinkList panel={panel} />
                </Stack>
              </Drawer.Body>
              <Drawer.CloseTrigger asChild>
                <CloseButton size="sm" aria-label={t('matrix.batchClose')} />
              </Drawer.CloseTrigger>
            </Drawer.Content>
          </Drawer.Positioner>
        </Portal>
      </Drawer.Root>
      <RevokeDialog panel={panel} />
    </>
  );
}

/** The make form: its draft and check are the panel machine's (docs/architecture.md "Forms"). */
function MakeForm(props: { panel: Panel; groups: ResourceGroup[] }) {
  const t = useT();
  const intl = useIntl();
  const { panel } = props;
  const saving = useSelector(panel, (s) => s.hasTag('saving'));
  const error = useSelector(panel, (s) =>
    s.matches({ open: { make: 'failed' } }) ? s.context.makeError : null,
  );
  const form = useSelector(panel, (s) => s.context.form);
  const errors = useSelector(panel, (s) => s.context.formErrors);
  const set = <K extends keyof BatchLinkForm>(field: K, value: BatchLinkForm[K]) =>
    panel.send({ type: 'SET', field, value });
  const say = (id: string | undefined) => (id ? formatText(intl, id) : null);
  const submit = () => panel.send({ type: 'MAKE' });
  return (
    <ValidatedForm onSubmit={submit} aria-labelledby="batch-link-new">
      <Stack gap="4">
        <Heading as="h2" size="sm" id="batch-link-new">
          {t('matrix.batchNew')}
        </Heading>
        <HStack gap="4" alignItems="flex-start" flexWrap="wrap">
          <FormField label={t('matrix.batchHours')} error={say(errors.hours)}>
            <Input
              inputMode="numeric"
              value={form.hours}
              maxLength={3}
              onChange={(e) => set('hours', e.currentTarget.value)}
            />
          </FormField>
          <FormField label={t('matrix.batchMaxUses')} error={say(errors.uses)}>
            <Input
              inputMode="numeric"
              value={form.unlimited ? '' : form.uses}
              maxLength={4}
              disabled={form.unlimited}
              onChange={(e) => set('uses', e.currentTarget.value)}
            />
          </FormField>
        </HStack>
        <Checkbox.Root
          checked={form.unlimited}
          onCheckedChange={(e) => set('unlimited', e.checked === true)}
        >
          <Checkbox.HiddenInput />
          <Checkbox.Control />
          <Checkbox.Label>{t('matrix.batchUnlimited')}</Checkbox.Label>
        </Checkbox.Root>
        <SelectField
          label={t('matrix.batchGroup')}
          value={form.group}
          options={[
            { value: '0', label: t('matrix.ungrouped') },
            ...props.groups.map((g) => ({ value: String(g.id), label: g.name })),
          ]}
          onChange={(group) => set('group', group)}
        />
        {error && <FailureAlert error={error} />}
        <Box>
          <Button
            type="submit"
            loading={saving}
            loadingText={t('matrix.batchMake')}
            aria-busy={saving}
          >
            {t('matrix.batchMake')}
          </Button>
        </Box>
      </Stack>
    </ValidatedForm>
  );
}

/** The QR code of the link made or chosen: drawn, shown with its address, downloaded as a PNG. */
function QrCode(props: { panel: Panel }) {
  const t = useT();
  const { panel } = props;
  const qr = useSelector(panel, (s) => (s.hasTag('qr') ? s.context.qr : null));
  const drawing = useSelector(panel, (s) => s.matches({ open: { qr: 'drawing' } }));
  const failed = useSelector(panel, (s) => s.matches({ open: { qr: 'failed' } }));
  if (!qr) return null;
  const title = t('matrix.batchQrOf', { id: qr.id });
  return (
    <Stack
      as="section"
      aria-label={title}
      data-testid="batch-link-qr"
      gap="3"
      borderWidth="1px"
      borderRadius="l2"
      padding="4"
      alignItems="center"
    >
      <Heading as="h2" size="sm">
        {title}
      </Heading>
      {drawing && <LoadingSpinner label={t('matrix.batchDrawing')} />}
      {failed && <FailureAlert error={QR_FAILED} />}
      {qr.image && (
        <Image
          src={qr.image}
          alt={t('matrix.batchQrAlt', { url: qr.url })}
          width="240px"
          height="240px"
        />
      )}
      <Text fontSize="xs" wordBreak="break-all" textAlign="center">
        {qr.url}
      </Text>
      <HStack gap="2">
        {qr.image && (
          <Button size="sm" onClick={() => panel.send({ type: 'DOWNLOAD' })}>
            {t('matrix.batchDownload')}
          </Button>
        )}
        <Button size="sm" variant="ghost" onClick={() => panel.send({ type: 'HIDE_QR' })}>
          {t('matrix.batchHideQr')}
        </Button>
      </HStack>
    </Stack>
  );
}

function LinkList(props: { panel: Panel }) {
  const t = useT();
  const intl = useIntl();
  const list = useListActor(useArea(matrixBatchLinksArea).links);
  const { panel } = props;
  const columns: Column<BatchLink>[] = [
    {
      key: 'link',
      header: t('matrix.batchColLink'),
      cell: (r) => (
        <HStack gap="1">
          <Text>{t('matrix.batchLinkNo', { id: r.id })}</Text>
          <CopyButton label={t('matrix.batchCopyOf', { id: r.id })} text={r.url} />
        </HStack>
      ),
    },
    {
      key: 'state',
      header: t('matrix.batchColState'),
      cell: (r) => (
        <Badge size="sm" variant="subtle" colorPalette={STATE[r.state].palette}>
          {t(STATE[r.state].label)}
        </Badge>
      ),
    },
    {
      key: 'uses',
      header: t('matrix.batchColUses'),
      cell: (r) =>
        r.max_uses === null
          ? t('matrix.batchUsesUnlimited', { uses: intl.formatNumber(r.uses) })
          : t('matrix.batchUses', {
              uses: intl.formatNumber(r.uses),
              max: intl.formatNumber(r.max_uses),
            }),
    },
    {
      key: 'expires',
      header: t('matrix.batchColExpires'),
      cell: (r) => intl.formatDate(r.expires_at, { dateStyle: 'medium', timeStyle: 'short' }),
    },
    {
      key: 'actions',
      header: t('matrix.colActions'),
      pinned: 'end',
      cell: (r) => (
        <HStack gap="1">
          <Button
            size="xs"
            variant="outline"
            aria-label={t('matrix.batchQrOf', { id: r.id })}
            onClick={() => panel.send({ type: 'SHOW_QR', link: { id: r.id, url: r.url } })}
          >
            {t('matrix.batchQr')}
          </Button>
          {r.state === 'valid' && (
            <Button
              size="xs"
              variant="ghost"
              colorPalette="red"
              aria-label={t('matrix.batchRevokeOf', { id: r.id })}
              onClick={() => panel.send({ type: 'ASK_REVOKE', link: r })}
            >
              {t('matrix.batchRevoke')}
            </Button>
          )}
        </HStack>
      ),
    },
  ];
  return (
    <DataTable
      label={t('matrix.batchLinks')}
      testId="batch-links"
      columns={columns}
      rowKey={(r) => r.id}
      emptyText={t('matrix.batchEmpty')}
      {...list.table}
    />
  );
}

/** Revoking asks first; a refusal shows in the dialog and "Revoke" tries again. */
function RevokeDialog(props: { panel: Panel }) {
  const t = useT();
  const { panel } = props;
  const open = useSelector(panel, (s) => s.hasTag('revokeDialog'));
  const link = useSelector(panel, (s) => s.context.revoking);
  const busy = useSelector(panel, (s) => s.hasTag('revoking'));
  const error = useSelector(panel, (s) =>
    s.matches({ open: { revoke: 'failed' } }) ? s.context.revokeError : null,
  );
  if (!open || !link) return null;
  return (
    <FormDialog
      open
      title={t('matrix.batchRevokeTitle', { id: link.id })}
      submitLabel={t('matrix.batchRevoke')}
      submitting={busy}
      onClose={() => panel.send({ type: 'CANCEL_REVOKE' })}
      onSubmit={() => panel.send({ type: 'CONFIRM_REVOKE' })}
    >
      <Text>{t('matrix.batchRevokeWhat')}</Text>
      {error && <FailureAlert error={error} />}
    </FormDialog>
  );
}
