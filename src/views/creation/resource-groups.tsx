import { Box, Button, HStack, IconButton, Stack, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import type { ResourceGroup } from '../../api/contract/resources';
import type { GroupFilter, ResourcesActors } from '../../app/actors/resources';
import { Icon } from '../../components/icons';
import { LoadFailed } from '../../components/load-failed';
import type { MessageId } from '../../i18n/messages';

/**
 * The groups (folders) beside the grid: every resource, the ungrouped ones, each group with its
 * count and its rename / delete buttons, and "New group". Choosing one filters the list.
 */
export function ResourceGroups(props: {
  area: Pick<ResourcesActors, 'groups' | 'groupAdd' | 'groupRename' | 'groupDelete'>;
  current: GroupFilter;
  onChoose: (group: GroupFilter) => void;
}) {
  const intl = useIntl();
  const t = (id: MessageId, values?: Record<string, string | number>) =>
    intl.formatMessage({ id }, values);
  const { area } = props;
  const data = useSelector(area.groups, (s) => s.context.data);
  const failed = useSelector(area.groups, (s) => s.matches('failed'));
  const total = data ? data.ungrouped + data.list.reduce((sum, g) => sum + g.count, 0) : null;
  const entry = (group: GroupFilter, name: string, count: number | null) => {
    const current = props.current === group;
    return (
      <Button
        size="sm"
        variant={current ? 'subtle' : 'ghost'}
        justifyContent="flex-start"
        flex="1"
        minWidth="0"
        aria-current={current ? 'true' : undefined}
        onClick={() => props.onChoose(group)}
      >
        <Text truncate>
          {count === null ? name : t('resources.groupWithCount', { name, count })}
        </Text>
      </Button>
    );
  };
  return (
    <Stack as="nav" aria-label={t('resources.groups')} gap="1" width={{ base: 'full', md: '56' }}>
      <HStack justifyContent="space-between">
        <Text fontWeight="semibold" fontSize="sm">
          {t('resources.groups')}
        </Text>
        <Button
          size="xs"
          variant="outline"
          onClick={() => area.groupAdd.send({ type: 'OPEN', target: null })}
        >
          {t('resources.newGroup')}
        </Button>
      </HStack>
      {failed && <LoadFailed onRetry={() => area.groups.send({ type: 'RELOAD' })} />}
      <Box as="ul" listStyleType="none" display="grid" gap="1">
        <li>{entry('all', t('resources.allGroups'), total)}</li>
        <li>{entry('ungrouped', t('resources.ungrouped'), data ? data.ungrouped : null)}</li>
        {data?.list.map((group) => (
          <HStack as="li" key={group.id} gap="0">
            {entry(group.id, group.name, group.count)}
            <GroupButtons area={area} group={group} t={t} />
          </HStack>
        ))}
      </Box>
    </Stack>
  );
}

function GroupButtons(props: {
  area: Pick<ResourcesActors, 'groupRename' | 'groupDelete'>;
  group: ResourceGroup;
  t: (id: MessageId, values?: Record<string, string | number>) => string;
}) {
  const { area, group, t } = props;
  return (
    <>
      <IconButton
        size="xs"
        variant="ghost"
        aria-label={t('resources.renameGroup', { name: group.name })}
        onClick={() => area.groupRename.send({ type: 'OPEN', target: group })}
      >
        <Icon name="edit" />
      </IconButton>
      <IconButton
        size="xs"
        variant="ghost"
        aria-label={t('resources.deleteGroup', { name: group.name })}
        onClick={() => area.groupDelete.send({ type: 'OPEN', target: group })}
      >
        <Icon name="trash" />
      </IconButton>
    </>
  );
}
