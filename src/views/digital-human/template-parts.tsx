import { Badge, Box, chakra, HStack, Image, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import type { DhTemplate, TemplateLayout, TemplateRatio } from '../../api/contract/dh-templates';
import type { MessageId } from '../../i18n/messages';
import type { T } from '../shared/use-t';

/** The width over the height of a ratio's frame. */
const ASPECT: Record<TemplateRatio, number> = {
  '9:16': 9 / 16,
  '16:9': 16 / 9,
  '1:1': 1,
  '4:3': 4 / 3,
};

export const SCOPE_LABEL: Record<DhTemplate['scope'], MessageId> = {
  platform: 'dhTemplates.scopePlatform',
  mine: 'dhTemplates.scopeMine',
};

const HEX = /^#[0-9a-f]{6}$/i;
/** A share (0–1) as a CSS percentage; null when it is not a number (a draft being typed). */
const share = (n: number) => (Number.isFinite(n) ? `${Math.min(1, Math.max(0, n)) * 100}%` : null);
/** A share (0–1) as a whole-ish percentage for reading. */
const whole = (n: number) => (Number.isFinite(n) ? String(Math.round(n * 1000) / 10) : '?');

/**
 * A template's frame drawn small (docs/domain.md §10 "Video templates"): its ratio, the
 * background colour and picture, the presenter's rectangle and the subtitles' line at their place,
 * size and colour. One picture for a screen reader, named by what it shows.
 */
export function TemplateFrame(props: {
  ratio: TemplateRatio;
  layout: TemplateLayout;
  /** The background picture's address (shown to cover the frame). */
  backgroundImage?: string | null;
  /** The frame's height in the page (a CSS size). */
  height?: string;
  t: T;
}) {
  const { layout, t } = props;
  const { avatar, subtitle } = layout;
  const rect = {
    left: share(avatar.x),
    top: share(avatar.y),
    width: share(avatar.width),
    height: share(avatar.height),
  };
  const showRect = Object.values(rect).every((v) => v !== null);
  const lineTop = share(subtitle.y - subtitle.size);
  const lineHeight = share(subtitle.size);
  return (
    <Box
      role="img"
      aria-label={t('dhTemplates.frameLabel', {
        ratio: props.ratio,
        x: whole(avatar.x),
        y: whole(avatar.y),
        width: whole(avatar.width),
        height: whole(avatar.height),
        subtitle: whole(subtitle.y),
      })}
      data-testid="template-frame"
      position="relative"
      overflow="hidden"
      borderWidth="1px"
      borderRadius="sm"
      height={props.height ?? '32'}
      aspectRatio={ASPECT[props.ratio]}
      maxWidth="full"
      bg={HEX.test(layout.background) ? layout.background : 'bg.muted'}
      backgroundImage={props.backgroundImage ? `url("${props.backgroundImage}")` : undefined}
      backgroundSize="cover"
      backgroundPosition="center"
    >
      {showRect && (
        <Box
          position="absolute"
          left={rect.left!}
          top={rect.top!}
          width={rect.width!}
          height={rect.height!}
          borderWidth="2px"
          borderStyle="dashed"
          borderColor="white"
          bg="blackAlpha.500"
          data-testid="template-frame-avatar"
        />
      )}
      {lineTop !== null && lineHeight !== null && (
        <Box
          position="absolute"
          left="20%"
          width="60%"
          top={lineTop}
          height={lineHeight}
          minHeight="2px"
          borderRadius="xs"
          bg={HEX.test(subtitle.color) ? subtitle.color : 'white'}
          boxShadow="0 0 0 1px rgba(0,0,0,0.6)"
          data-testid="template-frame-subtitle"
        />
      )}
    </Box>
  );
}

/** A template's colour swatch and the name of its background picture and music. */
export function TemplateFacts(props: { template: DhTemplate; t: T }) {
  const { template, t } = props;
  const rows: [string, ReactNode][] = [
    [
      t('dhTemplates.background'),
      <HStack key="bg" gap="1.5">
        <Box
          width="3.5"
          height="3.5"
          borderRadius="xs"
          borderWidth="1px"
          bg={template.layout.background}
          aria-hidden
        />
        <Text as="span">
          {template.background_image
            ? t('dhTemplates.backgroundWithImage', {
                colour: template.layout.background,
                name: template.background_image.name,
              })
            : template.layout.background}
        </Text>
      </HStack>,
    ],
    [t('dhTemplates.music'), template.music ? template.music.name : t('dhTemplates.noMusic')],
    [
      t('dhTemplates.subtitle'),
      t('dhTemplates.subtitleFacts', {
        y: whole(template.layout.subtitle.y),
        size: whole(template.layout.subtitle.size),
        colour: template.layout.subtitle.color,
      }),
    ],
  ];
  return (
    <chakra.dl
      display="grid"
      gridTemplateColumns="auto 1fr"
      columnGap="3"
      rowGap="0.5"
      fontSize="xs"
    >
      {rows.map(([label, value]) => (
        <Box key={label} display="contents">
          <chakra.dt color="fg.muted">{label}</chakra.dt>
          <chakra.dd minWidth="0" truncate>
            {value}
          </chakra.dd>
        </Box>
      ))}
    </chakra.dl>
  );
}

/** A template's name, ratio and whose it is. */
export function TemplateTitle(props: { template: DhTemplate; t: T; as?: 'h2' | 'span' }) {
  const { template, t } = props;
  return (
    <Stack gap="1" minWidth="0">
      <Text as={props.as ?? 'span'} fontWeight="semibold" truncate>
        {template.name}
      </Text>
      <HStack gap="1">
        <Badge variant="outline">{template.ratio}</Badge>
        <Badge colorPalette={template.scope === 'mine' ? 'green' : 'blue'}>
          {t(SCOPE_LABEL[template.scope])}
        </Badge>
      </HStack>
    </Stack>
  );
}

/** The template's cover when it has one, else its frame drawn. */
export function TemplateCover(props: { template: DhTemplate; t: T; height?: string }) {
  const { template, t } = props;
  if (template.cover) {
    return (
      <Image
        src={template.cover}
        alt={t('dhTemplates.coverOf', { name: template.name })}
        height={props.height ?? '32'}
        width="auto"
        maxWidth="full"
        objectFit="contain"
        borderRadius="sm"
        bg="bg.muted"
      />
    );
  }
  return (
    <TemplateFrame
      ratio={template.ratio}
      layout={template.layout}
      backgroundImage={template.background_image?.url ?? null}
      height={props.height}
      t={t}
    />
  );
}
