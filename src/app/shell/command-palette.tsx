import { Box, Dialog, Input, Portal, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import { useIntl } from 'react-intl';
import { useNavigate } from 'react-router-dom';
import { roleOf } from '../../api/contract/roles';
import type { MessageId } from '../../i18n/messages';
import { useAppActors } from '../actors/actors-context';
import { COMMANDS } from './commands';
import { paletteRoutes } from '../routes/route-table';

interface Entry {
  id: string;
  label: string;
  hint: string;
  run: () => void;
}

/** Ctrl/⌘+K opens the palette anywhere in the console. */
export function usePaletteShortcut(open: () => void) {
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        open();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);
}

/** Jump to any page the user may open, by its localised title, or run a command. */
export function CommandPalette(props: { open: boolean; onClose: () => void }) {
  const intl = useIntl();
  const navigate = useNavigate();
  const actors = useAppActors();
  const user = useSelector(actors.auth, (s) => s.context.user);
  const [query, setQuery] = useState('');
  const [index, setIndex] = useState(0);

  const entries = useMemo<Entry[]>(() => {
    if (!user) return [];
    const subject = { role: roleOf(user.user_type), show_clip_menu: user.show_clip_menu };
    const pages = paletteRoutes(subject).map((r) => ({
      id: r.name,
      label: intl.formatMessage({ id: r.titleId as MessageId }),
      hint: r.path,
      run: () => navigate(r.path),
    }));
    const commands = COMMANDS.map((c) => ({
      id: c.id,
      label: intl.formatMessage({ id: c.label }),
      hint: c.keywords ?? '',
      run: () => c.perform(actors),
    }));
    return [...pages, ...commands];
  }, [user, intl, navigate, actors]);

  const needle = query.trim().toLowerCase();
  const shown = needle
    ? entries.filter((e) => `${e.label} ${e.hint} ${e.id}`.toLowerCase().includes(needle))
    : entries;
  const selected = Math.min(index, Math.max(shown.length - 1, 0));

  const close = () => {
    setQuery('');
    setIndex(0);
    props.onClose();
  };
  const run = (entry: Entry | undefined) => {
    if (!entry) return;
    close();
    entry.run();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setIndex((selected + step + shown.length) % Math.max(shown.length, 1));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      run(shown[selected]);
    }
  };

  return (
    <Dialog.Root
      open={props.open}
      onOpenChange={(e) => {
        if (!e.open) close();
      }}
      placement="top"
      size="md"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content aria-label={intl.formatMessage({ id: 'palette.title' })}>
            <Dialog.Body padding="3">
              <Input
                autoFocus
                role="combobox"
                aria-expanded="true"
                aria-controls="palette-list"
                aria-activedescendant={
                  shown[selected] ? `palette-${shown[selected].id}` : undefined
                }
                aria-label={intl.formatMessage({ id: 'palette.placeholder' })}
                placeholder={intl.formatMessage({ id: 'palette.placeholder' })}
                value={query}
                onChange={(e) => {
                  setQuery(e.target.value);
                  setIndex(0);
                }}
                onKeyDown={onKeyDown}
              />
              <Box
                as="ul"
                id="palette-list"
                role="listbox"
                aria-label={intl.formatMessage({ id: 'palette.results' })}
                marginTop="2"
                maxHeight="60vh"
                overflowY="auto"
                listStyleType="none"
              >
                {shown.map((entry, i) => (
                  <Box
                    as="li"
                    key={entry.id}
                    id={`palette-${entry.id}`}
                    role="option"
                    aria-selected={i === selected}
                    display="flex"
                    justifyContent="space-between"
                    gap="3"
                    paddingX="3"
                    paddingY="2"
                    borderRadius="l2"
                    cursor="pointer"
                    bg={i === selected ? 'brand.subtle' : undefined}
                    onMouseEnter={() => setIndex(i)}
                    onClick={() => run(entry)}
                  >
                    <Text>{entry.label}</Text>
                    <Text color="fg.muted" fontSize="xs">
                      {entry.hint}
                    </Text>
                  </Box>
                ))}
                {shown.length === 0 && (
                  <Box
                    as="li"
                    role="option"
                    aria-disabled="true"
                    aria-selected="false"
                    padding="3"
                    color="fg.muted"
                  >
                    {intl.formatMessage({ id: 'palette.empty' })}
                  </Box>
                )}
              </Box>
            </Dialog.Body>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
