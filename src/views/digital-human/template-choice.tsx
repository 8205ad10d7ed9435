import { Badge, Box, Button, chakra, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { DhTemplate } from '../../api/contract/dh-templates';
import { useArea } from '../../app/actors/areas';
import { dhTemplatesArea } from '../../app/actors/digital-human-templates';
import { useLoadActor } from '../../app/hooks/use-load';
import { Section } from '../shared/form-parts';
import type { T } from '../shared/use-t';
import { TemplateFacts, TemplateFrame, TemplateTitle } from './template-parts';

/**
 * The create-video form's template (docs/domain.md §10 "Video templates"): cards of every
 * template the caller may use (the platform's, then its own), each with its layout drawn — the
 * presenter's rectangle and the subtitles' line — and the chosen one's background and music. The
 * default template's card stands for "none" (a video without a template uses it). Fresh each time
 * the form is built (a template made meanwhile shows).
 */
export function TemplateChoice(props: {
  value: number | null;
  disabled: boolean;
  onChange: (id: number | null) => void;
  t: T;
}) {
  const { t } = props;
  const area = useArea(dhTemplatesArea);
  const templates = useLoadActor(area.all, { fresh: true });
  const list = templates.data?.list ?? [];
  const isChosen = (tp: DhTemplate) => (props.value === null ? tp.default : tp.id === props.value);
  const chosen = list.find(isChosen) ?? null;
  return (
    <Section legend={t('dhVideoForm.template')}>
      {templates.data === null && !templates.failed ? (
        <Text role="status" color="fg.muted">
          {t('dhVideos.loading')}
        </Text>
      ) : templates.failed ? (
        <HStack role="alert" gap="2">
          <Text>{t('dhVideoForm.templatesFailed')}</Text>
          <Button size="xs" variant="outline" onClick={templates.reload}>
            {t('myCreation.retry')}
          </Button>
        </HStack>
      ) : (
        <SimpleGrid
          role="radiogroup"
          aria-label={t('dhVideoForm.template')}
          minChildWidth="32"
          gap="2"
          data-testid="dh-template-choice"
        >
          {list.map((tp) => (
            <Choice
              key={tp.id}
              on={isChosen(tp)}
              name={tp.default ? t('dhVideoForm.defaultTemplate', { name: tp.name }) : tp.name}
              disabled={props.disabled}
              badge={tp.ratio}
              onPick={() => props.onChange(tp.default ? null : tp.id)}
            >
              <TemplateFrame
                ratio={tp.ratio}
                layout={tp.layout}
                backgroundImage={tp.background_image?.url ?? null}
                height="20"
                t={t}
              />
            </Choice>
          ))}
        </SimpleGrid>
      )}
      {chosen && <ChosenTemplate template={chosen} t={t} />}
      <Box>
        <Button asChild size="xs" variant="ghost">
          <Link to="/digital-human/video-template">{t('dhVideoForm.manageTemplates')}</Link>
        </Button>
      </Box>
    </Section>
  );
}

function Choice(props: {
  on: boolean;
  name: string;
  badge?: string;
  disabled: boolean;
  onPick: () => void;
  children: ReactNode;
}) {
  return (
    <chakra.label
      display="flex"
      flexDirection="column"
      alignItems="center"
      gap="1"
      borderWidth="2px"
      borderRadius="md"
      padding="1.5"
      cursor="pointer"
      borderColor={props.on ? 'colorPalette.solid' : 'border'}
      data-testid="dh-template-option"
    >
      {props.children}
      <HStack gap="1" maxWidth="full">
        <input
          type="radio"
          name="dh-template"
          // Named by the template (the frame drawn beside it is a picture of its own).
          aria-label={props.name}
          checked={props.on}
          disabled={props.disabled}
          onChange={props.onPick}
        />
        <Text fontSize="xs" truncate>
          {props.name}
        </Text>
        {props.badge && (
          <Badge size="xs" variant="outline">
            {props.badge}
          </Badge>
        )}
      </HStack>
    </chakra.label>
  );
}

/** The chosen template larger: its frame, background, music and subtitles. */
function ChosenTemplate(props: { template: DhTemplate; t: T }) {
  const { template, t } = props;
  return (
    <Stack
      direction="row"
      gap="3"
      alignItems="flex-start"
      borderWidth="1px"
      borderRadius="md"
      padding="2"
      aria-label={t('dhVideoForm.chosenTemplate', { name: template.name })}
      role="group"
      data-testid="dh-template-chosen"
    >
      <TemplateFrame
        ratio={template.ratio}
        layout={template.layout}
        backgroundImage={template.background_image?.url ?? null}
        height="32"
        t={t}
      />
      <Stack gap="1" minWidth="0" flex="1">
        <TemplateTitle template={template} t={t} />
        <TemplateFacts template={template} t={t} />
        <Text fontSize="xs" color="fg.muted">
          {t('dhVideoForm.templateMusicHint')}
        </Text>
      </Stack>
    </Stack>
  );
}
