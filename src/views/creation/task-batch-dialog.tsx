import {
  Alert,
  Box,
  Button,
  chakra,
  CloseButton,
  Dialog,
  Input,
  Link,
  Portal,
  Stack,
  Table,
  Text,
} from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import {
  BATCH_COLUMNS,
  batchTemplate,
  type VideoTaskBatchEstimate,
} from '../../api/contract/video-task-batch';
import { useArea } from '../../app/actors/areas';
import { taskBatchArea } from '../../app/actors/task-batch';
import { videoTaskFormsArea } from '../../app/actors/video-task-forms';
import { FormField } from '../../components/form-field';
import { formatText } from '../../i18n/intl';
import { FormRefusal, Section } from '../shared/form-parts';
import { useT, type T } from '../shared/use-t';

/** The template's file name (its columns are the contract's, whatever the language). */
const TEMPLATE_FILE = 'batch-template.csv';

/**
 * The mixed-cut form's "Batch from CSV" part (docs/domain.md §9 "Presets, batches and
 * previews"): what it does, and the button that opens its dialog.
 */
export function TaskBatchSection(props: { disabled?: boolean }) {
  const t = useT();
  const batch = useArea(taskBatchArea).mixed;
  return (
    <Section legend={t('taskBatch.title')}>
      <Text fontSize="sm" color="fg.muted">
        {t('taskBatch.hint')}
      </Text>
      <Box>
        <Button
          size="sm"
          variant="outline"
          disabled={props.disabled}
          onClick={() => batch.send({ type: 'OPEN' })}
        >
          {t('taskBatch.open')}
        </Button>
      </Box>
    </Section>
  );
}

/**
 * The batch dialog, inside the form's drawer: the columns and the template, the file chosen, then
 * every error the server found (by row and column) or the batch's estimate and its confirmation,
 * then how many tasks were made. The task-batch actor owns every call; this shows its state and
 * sends what the person does.
 */
export function TaskBatchDialog() {
  const t = useT();
  const intl = useIntl();
  const batch = useArea(taskBatchArea).mixed;
  const form = useArea(videoTaskFormsArea).mixed;
  const open = useSelector(batch, (s) => s.hasTag('open'));
  const busy = useSelector(batch, (s) => s.hasTag('busy'));
  const phase = useSelector(batch, (s) =>
    typeof s.value === 'string' ? s.value : Object.values(s.value)[0],
  );
  const { fileName: file, errors, estimate, error, made } = useSelector(batch, (s) => s.context);
  const template = batchTemplate([
    [
      t('taskBatch.exampleName'),
      t('taskBatch.exampleTitle'),
      t('taskBatch.exampleSubtitle'),
      '',
      '',
      '1',
    ],
  ]);
  const close = () => batch.send({ type: 'CLOSE' });
  const priced = phase === 'estimated' || phase === 'submitting' || phase === 'failed';
  return (
    <Dialog.Root
      open={open}
      lazyMount
      unmountOnExit
      onOpenChange={(e) => {
        if (!e.open && !busy) close();
      }}
      placement="center"
      size="lg"
      scrollBehavior="inside"
    >
      {/* Inside the drawer's tree: the drawer does not hide it. */}
      <Portal disabled>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="task-batch">
            <Dialog.Header>
              <Dialog.Title>{t('taskBatch.title')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="4">
                <Stack gap="1">
                  <Text>{t('taskBatch.intro')}</Text>
                  <chakra.ul paddingStart="5" listStyleType="disc" fontSize="sm">
                    {BATCH_COLUMNS.map((column) => (
                      <li key={column}>{t(`taskBatch.column.${column}`)}</li>
                    ))}
                  </chakra.ul>
                  <Box>
                    <Link
                      href={`data:text/csv;charset=utf-8,${encodeURIComponent(template)}`}
                      download={TEMPLATE_FILE}
                      fontSize="sm"
                      textDecoration="underline"
                    >
                      {t('taskBatch.template')}
                    </Link>
                  </Box>
                </Stack>
                <FormField label={t('taskBatch.file')} helper={t('taskBatch.fileHelp')}>
                  <Input
                    type="file"
                    accept=".csv,text/csv"
                    disabled={busy || phase === 'done'}
                    onChange={(e) => {
                      const chosen = e.currentTarget.files?.[0];
                      // Emptied: the same file, corrected, can be chosen again.
                      e.currentTarget.value = '';
                      if (chosen) batch.send({ type: 'CHOOSE', file: chosen });
                    }}
                  />
                </FormField>
                <Box aria-live="polite" data-testid="task-batch-status">
                  {phase === 'checking' && (
                    <Text color="fg.muted">{t('taskBatch.checking', { file })}</Text>
                  )}
                  {phase === 'refused' && <BatchErrors file={file} errors={errors} t={t} />}
                  {priced && estimate && <BatchEstimate file={file} estimate={estimate} t={t} />}
                  {phase === 'done' && (
                    <Alert.Root status="success" role="status">
                      <Alert.Indicator />
                      <Alert.Title>
                        {intl.formatMessage({ id: 'taskBatch.done' }, { count: made, file })}
                      </Alert.Title>
                    </Alert.Root>
                  )}
                </Box>
                <FormRefusal error={error} />
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" disabled={busy} onClick={close}>
                {t('form.close')}
              </Button>
              {priced && estimate && (
                <Button
                  loading={phase === 'submitting'}
                  loadingText={t('taskBatch.confirm', { count: estimate.tasks })}
                  onClick={() => batch.send({ type: 'CONFIRM' })}
                >
                  {t('taskBatch.confirm', { count: estimate.tasks })}
                </Button>
              )}
              {phase === 'done' && (
                <Button
                  onClick={() => {
                    // The list behind the form shows the new tasks (the form keeps its settings).
                    close();
                    form.send({ type: 'CLOSE' });
                  }}
                >
                  {t('taskBatch.showTasks')}
                </Button>
              )}
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('form.close')} disabled={busy} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/** Every error of the file, by row and column, as the server wrote them. */
function BatchErrors(props: { file: string; errors: VideoTaskBatchEstimate['errors']; t: T }) {
  const { t, errors } = props;
  const intl = useIntl();
  return (
    <Stack gap="2">
      <Alert.Root status="error" role="alert">
        <Alert.Indicator />
        <Alert.Title>
          {t('taskBatch.refused', { count: errors.length, file: props.file })}
        </Alert.Title>
      </Alert.Root>
      <Table.Root size="sm" variant="outline">
        <Table.Caption captionSide="top" textAlign="start">
          {t('taskBatch.errors')}
        </Table.Caption>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>{t('taskBatch.row')}</Table.ColumnHeader>
            <Table.ColumnHeader>{t('taskBatch.column')}</Table.ColumnHeader>
            <Table.ColumnHeader>{t('taskBatch.problem')}</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {errors.map((e, i) => (
            <Table.Row key={i}>
              <Table.Cell>{e.row > 0 ? e.row : t('taskBatch.wholeFile')}</Table.Cell>
              <Table.Cell>{e.column || t('taskBatch.wholeRow')}</Table.Cell>
              <Table.Cell>{formatText(intl, e.message)}</Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Stack>
  );
}

/** The batch's tasks, videos and price (and its narration's), and what confirming holds. */
function BatchEstimate(props: { file: string; estimate: VideoTaskBatchEstimate; t: T }) {
  const { t, estimate } = props;
  const short =
    Math.round(Number(estimate.balance) * 100) < Math.round(Number(estimate.cost) * 100);
  const rows: [string, string][] = [
    [t('taskBatch.tasks'), String(estimate.tasks)],
    [t('taskForm.outputs'), String(estimate.outputs)],
    [t('taskForm.unitCost'), estimate.unit_cost],
    [t('taskForm.cost'), estimate.cost],
    [t('taskForm.balance'), estimate.balance],
    ...(estimate.narration
      ? ([
          [t('taskForm.narrationSeconds'), `${estimate.narration.seconds} s`],
          [
            t('taskForm.narrationCost'),
            t('taskForm.narrationCostValue', {
              cost: estimate.narration.cost,
              balance: estimate.narration.balance,
            }),
          ],
        ] as [string, string][])
      : []),
  ];
  return (
    <Stack gap="2" as="section" aria-label={t('taskBatch.estimate', { file: props.file })}>
      <Text fontWeight="semibold">{t('taskBatch.estimate', { file: props.file })}</Text>
      <chakra.dl display="grid" gridTemplateColumns="auto 1fr" columnGap="4" rowGap="1">
        {rows.map(([label, value]) => (
          <Box key={label} display="contents">
            <chakra.dt color="fg.muted">{label}</chakra.dt>
            <chakra.dd data-testid={`batch-${label}`}>{value}</chakra.dd>
          </Box>
        ))}
      </chakra.dl>
      {short && (
        <Alert.Root status="warning" size="sm">
          <Alert.Indicator />
          <Alert.Description>
            {t('taskForm.short', { balance: estimate.balance, cost: estimate.cost })}
          </Alert.Description>
        </Alert.Root>
      )}
      <Text fontSize="sm" color="fg.muted">
        {t('taskBatch.held')}
      </Text>
    </Stack>
  );
}
