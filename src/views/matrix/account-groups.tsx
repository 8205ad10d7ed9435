import { Box, Button, HStack, IconButton, Stack, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import type { ResourceGroup } from '../../api/contract/resources';
import type { AccountGroupFilter, MatrixActors } from '../../app/actors/matrix';
import { Icon } from '../../components/icons';
import { LoadFailed } from '../../components/load-failed';
import { useT } from '../shared/use-t';

/**
 * The account groups beside the table: every account, the ungrouped ones, each group with its
 * count and its rename / delete buttons, and "New group". Choosing one filters the list (the same
 * shape as the resource library's groups).
 */
export function AccountGroups(props: {
  area: Pick<MatrixActors, 'groups' | 'groupAdd' | 'groupRename' | 'groupDelete'>;
  current: AccountGroupFilter;
  onChoose: (group: AccountGroupFilter) => void;
}) {
  const t = useT();
  const { area } = props;
  const data = useSelector(area.groups, (s) => s.context.data);
  const failed = useSelector(area.groups, (s) => s.matches('failed'));
  const total = data ? data.ungrouped + data.list.reduce((sum, g) => sum + g.count, 0) : null;
  const entry = (group: AccountGroupFilter, name: string, count: number | null) => {
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
        <Text truncate>{count === null ? name : t('matrix.groupWithCount', { name, count })}</Text>
      </Button>
    );
  };
  return (
    <Stack as="nav" aria-label={t('matrix.groups')} gap="1" width={{ base: 'full', md: '56' }}>
      <HStack justifyContent="space-between">
        <Text fontWeight="semibold" fontSize="sm">
          {t('matrix.groups')}
        </Text>
        <Button
          size="xs"
          variant="outline"
          onClick={() => area.groupAdd.send({ type: 'OPEN', target: null })}
        >
          {t('matrix.newGroup')}
        </Button>
      </HStack>
      {failed && <LoadFailed onRetry={() => area.groups.send({ type: 'RELOAD' })} />}
      <Box as="ul" listStyleType="none" display="grid" gap="1">
        <li>{entry('all', t('matrix.allGroups'), total)}</li>
        <li>{entry('ungrouped', t('matrix.ungrouped'), data ? data.ungrouped : null)}</li>
        {data?.list.map((group) => (
          <HStack as="li" key={group.id} gap="0">
            {entry(group.id, group.name, group.count)}
            <GroupButtons area={area} group={group} />
          </HStack>
        ))}
      </Box>
    </Stack>
  );
}

function GroupButtons(props: {
  area: Pick<MatrixActors, 'groupRename' | 'groupDelete'>;
  group: ResourceGroup;
}) {
  const t = useT();
  const { area, group } = props;
  return (
    <>
      <IconButton
        size="xs"
        variant="ghost"
        aria-label={t('matrix.renameGroup', { name: group.name })}
        onClick={() => area.groupRename.send({ type: 'OPEN', target: group })}
      >
        <Icon name="edit" />
      </IconButton>
      <IconButton
        size="xs"
        variant="ghost"
        aria-label={t('matrix.deleteGroup', { name: group.name })}
        onClick={() => area.groupDelete.send({ type: 'OPEN', target: group })}
      >
        <Icon name="trash" />
      </IconButton>
    </>
  );
}
