import { Box, Text, chakra } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { useRef, useState, type KeyboardEvent } from 'react';
import { useIntl } from 'react-intl';
import type { CustomerRow } from '../../api/contract/customers';
import type { LoadActor } from '../../app/actors/factories';
import { useAppActors } from '../../app/actors/actors-context';
import { useArea } from '../../app/actors/areas';
import { customersArea } from '../../app/actors/customers';
import { useLoadActor } from '../../app/hooks/use-load';
import { useMoneyName } from '../../app/hooks/use-money-name';
import { LoadFailed } from '../../components/load-failed';
import { Page } from '../../components/page';
import type { MessageId } from '../../i18n/messages';
import { LoadingSpinner } from '../../components/loading-spinner';
import { formatMoney } from '../shared/amounts';
import { formatDhTime } from '../shared/dh-time';
import { TYPE_LABEL, customerLabel } from './customer-kinds';

/** A level's load actor: the top (null) or a node's children (the customers area's). */
type Level = (parent: CustomerRow | null) => LoadActor<CustomerRow[]>;

/**
 * /promotion/tree (admin, partner): an accessible tree (WAI-ARIA tree view pattern). Each level
 * loads when it is first opened. Keys: Up / Down move, Home / End jump, Right opens (or enters)
 * a level, Left closes it (or goes to the parent), Enter and Space toggle.
 */
export default function CustomerTreePage() {
  const intl = useIntl();
  const t = (id: MessageId) => intl.formatMessage({ id });
  const { auth } = useAppActors();
  const user = useSelector(auth, (s) => s.context.user);
  const me = { id: user?.accountId ?? 0, isAdmin: user?.user_type === 0 };
  const area = useArea(customersArea);
  const levelOf: Level = (parent) => area.treeLevel(parent, me);
  const root = useLoadActor(levelOf(null));
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const [focused, setFocused] = useState<number | null>(null);
  const treeRef = useRef<HTMLUListElement>(null);
  const rows = root.data ?? [];
  const active = focused ?? rows[0]?.id ?? null;

  const toggle = (id: number, open?: boolean) =>
    setExpanded((s) => {
      const next = new Set(s);
      if (open ?? !next.has(id)) next.add(id);
      else next.delete(id);
      return next;
    });

  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    const item = (e.target as HTMLElement).closest<HTMLElement>('[role="treeitem"]');
    if (!item || !treeRef.current) return;
    const items = [...treeRef.current.querySelectorAll<HTMLElement>('[role="treeitem"]')];
    const index = items.indexOf(item);
    const id = Number(item.dataset.id);
    const expandable = item.getAttribute('aria-expanded') !== null;
    const isOpen = item.getAttribute('aria-expanded') === 'true';
    const move = (to: HTMLElement | null | undefined) => {
      if (!to) return;
      setFocused(Number(to.dataset.id));
      to.focus();
    };
    switch (e.key) {
      case 'ArrowDown':
        move(items[index + 1]);
        break;
      case 'ArrowUp':
        move(items[index - 1]);
        break;
      case 'Home':
        move(items[0]);
        break;
      case 'End':
        move(items.at(-1));
        break;
      case 'ArrowRight':
        if (expandable && !isOpen) toggle(id, true);
        else if (isOpen)
          move(items[index + 1]?.dataset.parent === String(id) ? items[index + 1] : null);
        break;
      case 'ArrowLeft':
        if (isOpen) toggle(id, false);
        else move(items.find((other) => other.dataset.id === item.dataset.parent));
        break;
      case 'Enter':
      case ' ':
        if (expandable) toggle(id);
        break;
      default:
        return;
    }
    e.preventDefault();
    e.stopPropagation();
  };

  return (
    <Page title={t('route.tree')}>
      <Text fontSize="sm" color="fg.muted" id="customer-tree-help">
        {t('customers.treeHelp')}
      </Text>
      {root.failed && <LoadFailed onRetry={root.reload} />}
      {root.loading && !root.data && (
        <LoadingSpinner size="sm" label={t('customers.treeLoading')} />
      )}
      {root.data && rows.length === 0 && <Text>{t('customers.treeEmpty')}</Text>}
      {rows.length > 0 && (
        <chakra.ul
          ref={treeRef}
          role="tree"
          aria-label={t('customers.treeLabel')}
          aria-describedby="customer-tree-help"
          listStyleType="none"
          onKeyDown={onKeyDown}
          data-testid="customer-tree"
        >
          {rows.map((row, i) => (
            <TreeItem
              key={row.id}
              row={row}
              parent={null}
              level={1}
              position={i + 1}
              size={rows.length}
              levelOf={levelOf}
              expanded={expanded}
              active={active}
              onFocus={setFocused}
              onToggle={toggle}
            />
          ))}
        </chakra.ul>
      )}
    </Page>
  );
}

interface ItemProps {
  row: CustomerRow;
  /** The id of the item whose level this is; null at the top. */
  parent: number | null;
  level: number;
  position: number;
  size: number;
  levelOf: Level;
  expanded: ReadonlySet<number>;
  active: number | null;
  onFocus: (id: number) => void;
  onToggle: (id: number, open?: boolean) => void;
}

function TreeItem(props: ItemProps) {
  const intl = useIntl();
  const moneyName = useMoneyName();
  const { row } = props;
  const expandable = row.child_count > 0;
  const open = expandable && props.expanded.has(row.id);
  const labelId = `tree-label-${row.id}`;
  const summaryId = `tree-summary-${row.id}`;
  const groupId = `tree-group-${row.id}`;
  // The tree item holds its label only, so its name is its visible text (WCAG 2.5.3); the
  // summary beside it describes it, and its opened level is a sibling group it owns.
  return (
    <chakra.li role="none">
      <Box
        display="flex"
        gap="2"
        alignItems="baseline"
        paddingY="1"
        paddingStart={`${(props.level - 1) * 24 + 4}px`}
        rounded="sm"
        cursor={expandable ? 'pointer' : 'default'}
        _hover={{ bg: 'bg.muted' }}
        css={{
          '&:has(> [role="treeitem"]:focus-visible)': {
            outline: '2px solid',
            outlineColor: 'colorPalette.500',
          },
        }}
        onClick={(e) => {
          e.currentTarget.querySelector<HTMLElement>('[role="treeitem"]')?.focus();
          if (expandable) props.onToggle(row.id);
        }}
      >
        <span aria-hidden="true">{expandable ? (open ? '▾' : '▸') : '·'}</span>
        <chakra.span
          role="treeitem"
          data-id={row.id}
          data-parent={props.parent ?? undefined}
          aria-level={props.level}
          aria-posinset={props.position}
          aria-setsize={props.size}
          aria-expanded={expandable ? open : undefined}
          aria-owns={open ? groupId : undefined}
          aria-labelledby={labelId}
          aria-describedby={summaryId}
          tabIndex={props.active === row.id ? 0 : -1}
          onFocus={() => props.onFocus(row.id)}
          outline="none"
          fontWeight="medium"
        >
          <span id={labelId}>{customerLabel(row)}</span>
        </chakra.span>
        <Text as="span" id={summaryId} fontSize="sm" color="fg.muted">
          {intl.formatMessage(
            { id: 'customers.treeSummary' },
            {
              type: intl.formatMessage({
                id: TYPE_LABEL[row.user_type] ?? 'customers.typeMerchant',
              }),
              money: formatMoney(row.money),
              moneyName,
              dhTime: formatDhTime(
                (id, values) => intl.formatMessage({ id }, values),
                row.digital_man_seconds,
              ),
              voice: row.voice_clone_count,
              image: row.image_clone_count,
              children: row.child_count,
            },
          )}
        </Text>
      </Box>
      {open && <TreeChildren {...props} groupId={groupId} />}
    </chakra.li>
  );
}

/**
 * An opened level (a load actor per node, kept by the area, loaded when first shown): the group
 * its tree item owns, with a note while it loads, when it failed (click to retry) or when it is
 * empty.
 */
function TreeChildren(props: ItemProps & { groupId: string }) {
  const intl = useIntl();
  const { groupId, ...item } = props;
  const children = useLoadActor(props.levelOf(props.row));
  const rows = children.data ?? [];
  const note = children.failed
    ? 'customers.treeFailed'
    : children.loading && !children.data
      ? 'customers.treeLoading'
      : rows.length === 0
        ? 'customers.treeEmpty'
        : null;
  return (
    <chakra.ul role="group" id={groupId} listStyleType="none">
      {note && (
        <chakra.li role="none">
          <Text
            role="status"
            fontSize="sm"
            color={children.failed ? 'fg.error' : 'fg.muted'}
            paddingStart={`${props.level * 24 + 4}px`}
            onClick={children.failed ? children.reload : undefined}
          >
            {intl.formatMessage({ id: note })}
          </Text>
        </chakra.li>
      )}
      {rows.map((row, i) => (
        <TreeItem
          {...item}
          key={row.id}
          row={row}
          parent={props.row.id}
          level={props.level + 1}
          position={i + 1}
          size={rows.length}
        />
      ))}
    </chakra.ul>
  );
}
