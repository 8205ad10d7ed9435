import { Box, Button, Checkbox, CloseButton, Dialog, HStack, Stack, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import type { CreationMediaType } from '../../api/contract/matrix-plans';
import type { MatrixPlansActors } from '../../app/actors/matrix-plans';
import { useListActor } from '../../app/hooks/use-list';
import type { MessageId } from '../../i18n/messages';
import { SelectField } from '../shared/form-parts';
import { GridPager } from '../shared/resource-grid';
import { useT } from '../shared/use-t';

const TYPE_LABEL: Record<CreationMediaType, MessageId> = {
  video_output: 'matrixPlans.creationsOutputs',
  dh_video: 'matrixPlans.creationsDhVideos',
};

/**
 * The plan form's finished creations (the form machine's `creations` region): the caller's done
 * mixed-cut or clip outputs and digital-human videos, a page at a time (the area's `creations`
 * list). Ticking one adds it to the plan's videos, unticking takes it out (an EDIT of the draft).
 * Inside the form's drawer: kept in its tree, so the drawer does not hide it.
 */
export function PlanCreationsDialog(props: { area: MatrixPlansActors }) {
  const t = useT();
  const { area } = props;
  const open = useSelector(area.form, (s) => s.hasTag('creations'));
  const close = () => area.form.send({ type: 'CLOSE_CREATIONS' });
  return (
    <Dialog.Root
      open={open}
      lazyMount
      unmountOnExit
      onOpenChange={(e) => {
        if (!e.open) close();
      }}
      placement="center"
      size="lg"
      scrollBehavior="inside"
    >
      <Dialog.Backdrop />
      <Dialog.Positioner>
        <Dialog.Content data-testid="plan-creations">
          <Dialog.Header>
            <Dialog.Title>{t('matrixPlans.creationsTitle')}</Dialog.Title>
          </Dialog.Header>
          <Dialog.Body>{open && <CreationList area={area} />}</Dialog.Body>
          <Dialog.Footer>
            <Button onClick={close}>{t('matrixPlans.creationsDone')}</Button>
          </Dialog.Footer>
          <Dialog.CloseTrigger asChild>
            <CloseButton size="sm" aria-label={t('form.close')} />
          </Dialog.CloseTrigger>
        </Dialog.Content>
      </Dialog.Positioner>
    </Dialog.Root>
  );
}

function CreationList(props: { area: MatrixPlansActors }) {
  const t = useT();
  const { area } = props;
  const list = useListActor(area.creations);
  const media = useSelector(area.form, (s) => s.context.draft.media);
  const type = list.query.filters.type;
  const has = (id: number) => media.some((m) => m.type === type && m.id === id);
  const toggle = (id: number, name: string) =>
    area.form.send({
      type: 'EDIT',
      patch: {
        media: has(id)
          ? media.filter((m) => !(m.type === type && m.id === id))
          : [...media, { type, id, name }],
      },
    });
  return (
    <Stack gap="3">
      <Box maxWidth="60">
        <SelectField
          label={t('matrixPlans.creationsType')}
          value={type}
          options={(Object.keys(TYPE_LABEL) as CreationMediaType[]).map((v) => ({
            value: v,
            label: t(TYPE_LABEL[v]),
          }))}
          onChange={(v) => list.setFilters({ type: v as CreationMediaType })}
        />
      </Box>
      {list.failed ? (
        <Stack gap="2" alignItems="flex-start" role="alert">
          <Text>{t('matrixPlans.creationsFailed')}</Text>
          <Button size="sm" variant="outline" onClick={list.reload}>
            {t('matrixPlans.creationsRetry')}
          </Button>
        </Stack>
      ) : list.loading && list.rows.length === 0 ? (
        <Text role="status">{t('matrixPlans.creationsLoading')}</Text>
      ) : list.rows.length === 0 ? (
        <Text role="status">{t('matrixPlans.creationsEmpty')}</Text>
      ) : (
        <Stack gap="3" aria-busy={list.loading}>
          <Stack as="ul" listStyleType="none" gap="2" aria-label={t(TYPE_LABEL[type])}>
            {list.rows.map((r) => (
              <HStack as="li" key={r.id} gap="2">
                <Checkbox.Root
                  size="sm"
                  checked={has(r.id)}
                  onCheckedChange={() => toggle(r.id, r.name)}
                >
                  <Checkbox.HiddenInput />
                  <Checkbox.Control />
                  <Checkbox.Label>{r.name}</Checkbox.Label>
                </Checkbox.Root>
              </HStack>
            ))}
          </Stack>
          <GridPager
            label={t(TYPE_LABEL[type])}
            page={list.query.page}
            limit={list.query.limit}
            total={list.total}
            loading={list.loading}
            onPage={(page) => area.creations.send({ type: 'SET_PAGE', page })}
          />
        </Stack>
      )}
    </Stack>
  );
}
