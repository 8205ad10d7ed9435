import { Alert, Box, Button, chakra, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import {
  TEMPLATE_RATIOS,
  TEMPLATE_SCOPES,
  type DhTemplate,
  type TemplateRatio,
  type TemplateScope,
} from '../../api/contract/dh-templates';
import { useAppActors } from '../../app/actors/actors-context';
import { useArea } from '../../app/actors/areas';
import { dhTemplatesArea, type DhTemplatesActors } from '../../app/actors/digital-human-templates';
import { useListActor } from '../../app/hooks/use-list';
import { SelectField } from '../../components/form-fields';
import { Page } from '../../components/page';
import { formatText } from '../../i18n/intl';
import { ConfirmRowDialog } from '../shared/call-dialog';
import { useT, type T } from '../shared/use-t';
import { TemplateDialog } from './template-dialog';
import {
  SCOPE_LABEL,
  TemplateCover,
  TemplateFacts,
  TemplateFrame,
  TemplateTitle,
} from './template-parts';

/**
 * /digital-human/video-template (admin, partner, merchant; docs/domain.md §10 "Video templates"):
 * the templates as cards — cover, name, ratio, whose, the demo video, the layout drawn as a small
 * frame (the presenter's rectangle, the subtitles' line), the background colour and picture, the
 * music — filtered by whose (partners and merchants) and ratio; "New template", and Edit and
 * Delete on what the caller may change (the admin the platform's, the others their own).
 */
export default function VideoTemplatePage() {
  const t = useT();
  const area = useArea(dhTemplatesArea);
  const list = useListActor(area.list);
  const { auth } = useAppActors();
  const admin = useSelector(auth, (s) => s.context.user?.user_type === 0);
  const filters = list.query.filters;
  return (
    <Page
      title={t('route.videoTemplate')}
      actions={
        <Button size="sm" onClick={() => area.dialog.send({ type: 'OPEN', target: null })}>
          {t(admin ? 'dhTemplates.newPlatform' : 'dhTemplates.new')}
        </Button>
      }
    >
      <Stack gap="4">
        <Text color="fg.muted" fontSize="sm">
          {t(admin ? 'dhTemplates.introAdmin' : 'dhTemplates.intro')}
        </Text>
        <HStack
          role="search"
          gap="3"
          alignItems="flex-end"
          wrap="wrap"
          aria-label={t('dhTemplates.filters')}
        >
          {!admin && (
            <Box width="48">
              <SelectField<TemplateScope | ''>
                label={t('dhTemplates.scope')}
                value={filters.scope}
                options={[
                  { value: '', label: t('dhTemplates.scopeAll') },
                  ...TEMPLATE_SCOPES.map((s) => ({ value: s, label: t(SCOPE_LABEL[s]) })),
                ]}
                onChange={(scope) => list.setFilters({ ...filters, scope })}
              />
            </Box>
          )}
          <Box width="48">
            <SelectField<TemplateRatio | ''>
              label={t('dhTemplates.ratio')}
              value={filters.ratio}
              options={[
                { value: '', label: t('dhTemplates.ratioAll') },
                ...TEMPLATE_RATIOS.map((r) => ({ value: r, label: r })),
              ]}
              onChange={(ratio) => list.setFilters({ ...filters, ratio })}
            />
          </Box>
        </HStack>
        <TemplateGrid
          area={area}
          rows={list.rows}
          loading={list.table.loading}
          error={list.table.error}
          onRetry={list.table.onRetry}
          t={t}
        />
      </Stack>
      <TemplateDialog area={area} platform={admin} />
      <ConfirmRowDialog
        actor={area.remove}
        title={(row) => t('dhTemplates.deleteTitle', { name: row.name })}
        what={() => t('dhTemplates.deleteWhat')}
        submitLabel={t('dhTemplates.delete')}
        payload={(row) => ({ ids: [row.id] })}
      />
    </Page>
  );
}

/** The cards, or what stands in for them (loading, a failure with Retry, none). */
function TemplateGrid(props: {
  area: DhTemplatesActors;
  rows: readonly DhTemplate[];
  loading: boolean;
  error: string | null;
  onRetry: () => void;
  t: T;
}) {
  const { t } = props;
  const intl = useIntl();
  if (props.error) {
    return (
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Description>
          <HStack gap="3">
            <Text>{formatText(intl, props.error)}</Text>
            <Button size="xs" variant="outline" onClick={props.onRetry}>
              {t('dhTemplates.retry')}
            </Button>
          </HStack>
        </Alert.Description>
      </Alert.Root>
    );
  }
  if (props.rows.length === 0) {
    return (
      <Text role="status" color="fg.muted">
        {t(props.loading ? 'dhTemplates.loading' : 'dhTemplates.empty')}
      </Text>
    );
  }
  return (
    <SimpleGrid
      as="ul"
      listStyleType="none"
      aria-label={t('dhTemplates.list')}
      aria-busy={props.loading}
      data-testid="dh-templates"
      // Cards keep their width when there are few.
      templateColumns="repeat(auto-fill, minmax(18rem, 1fr))"
      gap="4"
    >
      {props.rows.map((row) => (
        <chakra.li key={row.id} display="flex">
          <TemplateCard area={props.area} template={row} t={t} />
        </chakra.li>
      ))}
    </SimpleGrid>
  );
}

function TemplateCard(props: { area: DhTemplatesActors; template: DhTemplate; t: T }) {
  const { area, template, t } = props;
  const headingId = `dh-template-${template.id}`;
  return (
    <chakra.article
      aria-labelledby={headingId}
      data-testid="dh-template-card"
      display="flex"
      flexDirection="column"
      gap="3"
      flex="1"
      borderWidth="1px"
      borderRadius="md"
      padding="3"
    >
      <Box id={headingId}>
        <TemplateTitle template={template} t={t} as="h2" />
      </Box>
      <HStack gap="3" alignItems="flex-start" wrap="wrap">
        {template.cover && <TemplateCover template={template} t={t} height="28" />}
        <TemplateFrame
          ratio={template.ratio}
          layout={template.layout}
          backgroundImage={template.background_image?.url ?? null}
          height="28"
          t={t}
        />
      </HStack>
      <TemplateFacts template={template} t={t} />
      {template.demo?.url && (
        <chakra.video
          controls
          preload="none"
          src={template.demo.url}
          poster={template.demo.poster ?? undefined}
          maxHeight="40"
          width="full"
          bg="black"
          borderRadius="sm"
          aria-label={t('dhTemplates.demoOf', { name: template.name })}
        />
      )}
      {template.editable && (
        <HStack gap="1" marginTop="auto">
          <Button
            size="xs"
            variant="outline"
            aria-label={t('dhTemplates.editOf', { name: template.name })}
            onClick={() => area.dialog.send({ type: 'OPEN', target: template })}
          >
            {t('dhTemplates.edit')}
          </Button>
          {/* The default stays (a video without a template uses it). */}
          {!template.default && (
            <Button
              size="xs"
              variant="ghost"
              colorPalette="red"
              aria-label={t('dhTemplates.deleteOf', { name: template.name })}
              onClick={() => area.remove.send({ type: 'OPEN', target: template })}
            >
              {t('dhTemplates.delete')}
            </Button>
          )}
        </HStack>
      )}
    </chakra.article>
  );
}
