import {
  Alert,
  Box,
  Button,
  EmptyState,
  HStack,
  NativeSelect,
  Skeleton,
  Table,
  Text,
  chakra,
} from '@chakra-ui/react';
import { memo, useId, type ReactElement, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { formatText } from '../i18n/intl';
import { VirtualRows, useVirtualRows } from './data-table-virtual';
import { pinnedCellCss } from './pinned-column';

/**
 * A server-paginated table: columns, skeleton rows while loading, an empty state, the error with a
 * retry, and pagination (previous / next, page of pages, total, rows per page). Sorting is
 * optional: sortable columns get a header button and `aria-sort`. It holds no page state of its
 * own: the list machine (src/machines/list.ts, through src/app/hooks/use-list.ts) drives it. A page of
 * more than `virtualizeOver` rows is virtualised (./data-table-virtual.tsx): only the rows in
 * view are rendered, in a scroll area of bounded height under a sticky header.
 */
export interface Column<R> {
  key: string;
  header: string;
  cell: (row: R) => ReactNode;
  /** Numbers line up on the end. */
  align?: 'start' | 'end';
  sortable?: boolean;
  /** Kept in view at the table's end while a wide table scrolls sideways (a row's actions). */
  pinned?: 'end';
}

export interface SortState {
  key: string;
  order: 'asc' | 'desc';
}

export interface DataTableProps<R> {
  /** The table's accessible name. */
  label: string;
  columns: readonly Column<R>[];
  rows: readonly R[];
  rowKey: (row: R) => string | number;
  loading: boolean;
  /** A message id or the server's sentence; shown with a retry button. */
  error: string | null;
  onRetry: () => void;
  page: number;
  limit: number;
  total: number;
  onPage: (page: number) => void;
  onLimit: (limit: number) => void;
  pageSizes?: readonly number[];
  sort?: SortState | null;
  onSort?: (sort: SortState) => void;
  emptyText?: string;
  testId?: string;
  /**
   * Pages of more rows than this render only the rows in view (default
   * {@link VIRTUALIZE_OVER}; `Infinity`: never). Smaller pages render every row.
   */
  virtualizeOver?: number;
}

const SKELETON_ROWS = 3;
/**
 * Virtualise pages of more than 100 rows: every list but the card list stops at 100, so only
 * the card list's big pages change. A build may move it (`VITE_TABLE_VIRTUALIZE_OVER`, e.g. to
 * measure a 1000-row page rendered whole).
 */
const fromBuild = Number(import.meta.env.VITE_TABLE_VIRTUALIZE_OVER);
export const VIRTUALIZE_OVER = fromBuild > 0 ? fromBuild : 100;

export function DataTable<R>(props: DataTableProps<R>) {
  const intl = useIntl();
  const pages = Math.max(1, Math.ceil(props.total / props.limit));
  const showRows = !props.loading && !props.error;
  const virtual = useVirtualRows({
    rows: props.rows,
    enabled: showRows && props.rows.length > (props.virtualizeOver ?? VIRTUALIZE_OVER),
    placeKey: `${props.page}:${props.limit}`,
  });
  return (
    <Box data-testid={props.testId}>
      {props.error && !props.loading && (
        <Alert.Root status="error" role="alert" marginBottom="3">
          <Alert.Indicator />
          <Alert.Title>{formatText(intl, props.error)}</Alert.Title>
          <Button size="xs" variant="outline" marginStart="auto" onClick={props.onRetry}>
            {intl.formatMessage({ id: 'load.retry' })}
          </Button>
        </Alert.Root>
      )}
      {/* Wide tables scroll sideways: the scroll area takes the keyboard focus to scroll. */}
      <Table.ScrollArea
        ref={virtual.scrollRef}
        borderWidth="1px"
        rounded="md"
        tabIndex={0}
        role="region"
        aria-label={props.label}
        {...virtual.scrollProps}
      >
        <Table.Root
          size="sm"
          aria-label={props.label}
          aria-busy={props.loading}
          {...virtual.tableProps}
        >
          <Table.Header ref={virtual.headRef}>
            <Table.Row {...virtual.headRowProps}>
              {props.columns.map((column) => (
                <HeaderCell key={column.key} column={column} {...props} />
              ))}
            </Table.Row>
          </Table.Header>
          <Table.Body ref={virtual.bodyRef} {...virtual.bodyProps}>
            {props.loading &&
              Array.from({ length: SKELETON_ROWS }, (_, i) => (
                <Table.Row key={`skeleton-${i}`} aria-hidden="true">
                  {props.columns.map((column) => (
                    <Table.Cell key={column.key}>
                      <Skeleton height="4" />
                    </Table.Cell>
                  ))}
                </Table.Row>
              ))}
            {virtual.enabled && (
              <VirtualRows
                segments={virtual.segments}
                rows={props.rows}
                columns={props.columns}
                rowKey={props.rowKey}
              />
            )}
            {showRows &&
              !virtual.enabled &&
              props.rows.map((row) => (
                <Table.Row key={props.rowKey(row)}>
                  {props.columns.map((column) => (
                    <Table.Cell
                      key={column.key}
                      textAlign={column.align ?? 'start'}
                      css={pinnedCellCss(column.pinned === 'end')}
                    >
                      {column.cell(row)}
                    </Table.Cell>
                  ))}
                </Table.Row>
              ))}
            {showRows && props.rows.length === 0 && (
              <Table.Row>
                <Table.Cell colSpan={props.columns.length}>
                  <EmptyState.Root size="sm">
                    <EmptyState.Content>
                      <EmptyState.Title>
                        {props.emptyText ?? intl.formatMessage({ id: 'table.empty' })}
                      </EmptyState.Title>
                    </EmptyState.Content>
                  </EmptyState.Root>
                </Table.Cell>
              </Table.Row>
            )}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
      <Pagination {...props} pages={pages} />
    </Box>
  );
}

// Header and pagination are memoised: scrolling a virtualised page renders the table again with
// the same props, and only the rows coming into view need rendering.
const HeaderCell = memo(function HeaderCell<R>(props: DataTableProps<R> & { column: Column<R> }) {
  const { column, sort, onSort } = props;
  const active = sort?.key === column.key ? sort.order : null;
  const ariaSort = active === 'asc' ? 'ascending' : active === 'desc' ? 'descending' : undefined;
  return (
    <Table.ColumnHeader
      textAlign={column.align ?? 'start'}
      aria-sort={ariaSort}
      css={pinnedCellCss(column.pinned === 'end', true)}
    >
      {column.sortable && onSort ? (
        // The button is named by the header; the header's aria-sort tells the order.
        <Button
          variant="ghost"
          size="xs"
          onClick={() => onSort({ key: column.key, order: active === 'asc' ? 'desc' : 'asc' })}
        >
          {column.header}
          <span aria-hidden="true">{active === 'asc' ? '↑' : active === 'desc' ? '↓' : ''}</span>
        </Button>
      ) : (
        column.header
      )}
    </Table.ColumnHeader>
  );
}) as <R>(props: DataTableProps<R> & { column: Column<R> }) => ReactElement;

const Pagination = memo(function Pagination<R>(props: DataTableProps<R> & { pages: number }) {
  const intl = useIntl();
  const sizeId = useId();
  const sizes = props.pageSizes ?? [10, 20, 50, 100];
  return (
    <HStack
      as="nav"
      aria-label={intl.formatMessage({ id: 'table.pagination' }, { table: props.label })}
      justifyContent="flex-end"
      gap="3"
      marginTop="3"
      flexWrap="wrap"
    >
      <Text fontSize="sm">{intl.formatMessage({ id: 'table.total' }, { total: props.total })}</Text>
      <HStack gap="2">
        <chakra.label fontSize="sm" htmlFor={sizeId}>
          {intl.formatMessage({ id: 'table.pageSize' })}
        </chakra.label>
        <NativeSelect.Root size="xs" width="20">
          <NativeSelect.Field
            id={sizeId}
            value={String(props.limit)}
            onChange={(e) => props.onLimit(Number(e.currentTarget.value))}
          >
            {sizes.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </HStack>
      <Button
        size="xs"
        variant="outline"
        disabled={props.page <= 1 || props.loading}
        onClick={() => props.onPage(props.page - 1)}
      >
        {intl.formatMessage({ id: 'table.previous' })}
      </Button>
      <Text fontSize="sm" aria-live="polite">
        {intl.formatMessage({ id: 'table.pageOf' }, { page: props.page, pages: props.pages })}
      </Text>
      <Button
        size="xs"
        variant="outline"
        disabled={props.page >= props.pages || props.loading}
        onClick={() => props.onPage(props.page + 1)}
      >
        {intl.formatMessage({ id: 'table.next' })}
      </Button>
    </HStack>
  );
}) as <R>(props: DataTableProps<R> & { pages: number }) => ReactElement;
