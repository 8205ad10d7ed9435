import { Avatar, Button, Menu, Portal, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { useNavigate } from 'react-router-dom';
import { useAppActors } from '../actors/actors-context';
import { commandById } from './commands';
import { routeByName } from '../routes/route-table';

/** The navbar's user menu: info, settings, logout. */
export function UserMenu() {
  const intl = useIntl();
  const navigate = useNavigate();
  const actors = useAppActors();
  const user = useSelector(actors.auth, (s) => s.context.user);
  const display = user?.nickname || user?.username || '';
  return (
    <Menu.Root
      onSelect={(d) => {
        if (d.value === 'logout') commandById('logout').perform(actors);
        else navigate(routeByName(d.value)!.path);
      }}
    >
      <Menu.Trigger asChild>
        <Button
          variant="ghost"
          size="sm"
          aria-label={intl.formatMessage({ id: 'shell.userMenu' }, { name: display })}
        >
          {/* A picture, not the name's initial: the visible text must be part of the button's
              name (WCAG 2.5.3), and "A Admin" is not part of "User menu of Admin". */}
          <Avatar.Root size="xs" aria-hidden="true">
            <Avatar.Fallback />
          </Avatar.Root>
          <Text display={{ base: 'none', md: 'inline' }}>{display}</Text>
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content>
            <Menu.Item value="userInfo">{intl.formatMessage({ id: 'route.userInfo' })}</Menu.Item>
            <Menu.Item value="userSetting">
              {intl.formatMessage({ id: 'route.userSetting' })}
            </Menu.Item>
            <Menu.Separator />
            <Menu.Item value="logout">{intl.formatMessage({ id: 'shell.logout' })}</Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
