import {
  Badge,
  Box,
  Button,
  Checkbox,
  HStack,
  IconButton,
  Image,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useIntl } from 'react-intl';
import { MEDIA_KIND, type Resource } from '../../api/contract/resources';
import { Icon } from '../../components/icons';
import type { MessageId } from '../../i18n/messages';
import { lastPage } from '../../machines/list';
import { RESOURCE_TYPE_LABEL } from './upload-drop-zone';
import { formatBytes } from './upload-format';
import { formatDuration } from './format';

type T = (id: MessageId, values?: Record<string, string | number>) => string;

export interface GridActions {
  onToggle: (id: number) => void;
  onPreview: (resource: Resource) => void;
  onRename: (resource: Resource) => void;
  onMove: (resource: Resource) => void;
  onDelete: (resource: Resource) => void;
}

/** The posters of one page: type, duration, size and name; select, preview, rename, move, delete. */
export function ResourceGrid(
  props: { rows: Resource[]; selected: readonly number[] } & GridActions,
) {
  const intl = useIntl();
  const t: T = (id, values) => intl.formatMessage({ id }, values);
  return (
    <SimpleGrid
      as="ul"
      aria-label={t('resources.list')}
      listStyleType="none"
      minChildWidth="44"
      gap="3"
      data-testid="resource-grid"
    >
      {props.rows.map((r) => (
        <ResourceCard
          key={r.id}
          resource={r}
          selected={props.selected.includes(r.id)}
          t={t}
          size={formatBytes(intl, r.size)}
          actions={props}
        />
      ))}
    </SimpleGrid>
  );
}

function ResourceCard(props: {
  resource: Resource;
  selected: boolean;
  size: string;
  t: T;
  actions: GridActions;
}) {
  const { resource: r, t, actions } = props;
  const kind = MEDIA_KIND[r.type];
  return (
    <Stack
      as="li"
      gap="1"
      borderWidth="1px"
      borderRadius="md"
      padding="2"
      borderColor={props.selected ? 'colorPalette.solid' : 'border'}
      data-testid="resource-card"
    >
      <Box
        position="relative"
        aspectRatio={16 / 9}
        bg="bg.muted"
        borderRadius="sm"
        overflow="hidden"
        display="flex"
        alignItems="center"
        justifyContent="center"
      >
        {r.cover ? (
          <Image src={r.cover} alt="" width="100%" height="100%" objectFit="cover" />
        ) : (
          <Text fontSize="sm" color="fg.muted">
            {t(RESOURCE_TYPE_LABEL[r.type])}
          </Text>
        )}
        {kind === 'video' && (
          <Box position="absolute" insetStart="2" bottom="2" color="white">
            <Icon name="play" />
          </Box>
        )}
        {r.duration !== null && (
          <Badge position="absolute" insetEnd="1" bottom="1" size="sm" data-testid="duration">
            {formatDuration(r.duration)}
          </Badge>
        )}
        {/* Over the poster, without text of its own: its name is the whole accessible name. */}
        <Box
          as="button"
          position="absolute"
          inset="0"
          cursor="pointer"
          borderRadius="sm"
          aria-label={t('resources.preview', { name: r.name })}
          onClick={() => actions.onPreview(r)}
        />
      </Box>
      <HStack gap="2" minWidth="0">
        <Checkbox.Root
          size="sm"
          checked={props.selected}
          onCheckedChange={() => actions.onToggle(r.id)}
        >
          <Checkbox.HiddenInput aria-label={t('resources.select', { name: r.name })} />
          <Checkbox.Control />
        </Checkbox.Root>
        <Text fontSize="sm" fontWeight="medium" truncate title={r.name}>
          {r.name}
        </Text>
      </HStack>
      <HStack gap="2" fontSize="xs" color="fg.muted">
        <Badge size="sm" variant="outline">
          {t(RESOURCE_TYPE_LABEL[r.type])}
        </Badge>
        <Text>{props.size}</Text>
      </HStack>
      <HStack gap="0" justifyContent="flex-end">
        <IconButton
          size="xs"
          variant="ghost"
          aria-label={t('resources.rename', { name: r.name })}
          onClick={() => actions.onRename(r)}
        >
          <Icon name="edit" />
        </IconButton>
        <Button
          size="xs"
          variant="ghost"
          aria-label={t('resources.move', { name: r.name })}
          onClick={() => actions.onMove(r)}
        >
          {t('resources.moveShort')}
        </Button>
        <IconButton
          size="xs"
          variant="ghost"
          aria-label={t('resources.deleteOne', { name: r.name })}
          onClick={() => actions.onDelete(r)}
        >
          <Icon name="trash" />
        </IconButton>
      </HStack>
    </Stack>
  );
}

/** Placeholders in the grid's shape while the first page loads. */
export function GridSkeleton(props: { label: string }) {
  return (
    <SimpleGrid minChildWidth="44" gap="3" aria-busy="true" aria-label={props.label} role="status">
      {Array.from({ length: 8 }, (_, i) => (
        <Stack key={i} gap="2">
          <Skeleton aspectRatio={16 / 9} />
          <Skeleton height="4" />
        </Stack>
      ))}
    </SimpleGrid>
  );
}

/** Previous / next through the pages, with the total. */
export function GridPager(props: {
  label: string;
  page: number;
  limit: number;
  total: number;
  loading: boolean;
  onPage: (page: number) => void;
}) {
  const intl = useIntl();
  const pages = lastPage(props.total, props.limit);
  return (
    <HStack
      as="nav"
      aria-label={intl.formatMessage({ id: 'table.pagination' }, { table: props.label })}
      justifyContent="flex-end"
      gap="3"
      flexWrap="wrap"
    >
      <Text fontSize="sm">{intl.formatMessage({ id: 'table.total' }, { total: props.total })}</Text>
      <Button
        size="xs"
        variant="outline"
        disabled={props.page <= 1 || props.loading}
        onClick={() => props.onPage(props.page - 1)}
      >
        {intl.formatMessage({ id: 'table.previous' })}
      </Button>
      <Text fontSize="sm" aria-live="polite">
        {intl.formatMessage({ id: 'table.pageOf' }, { page: props.page, pages })}
      </Text>
      <Button
        size="xs"
        variant="outline"
        disabled={props.page >= pages || props.loading}
        onClick={() => props.onPage(props.page + 1)}
      >
        {intl.formatMessage({ id: 'table.next' })}
      </Button>
    </HStack>
  );
}
