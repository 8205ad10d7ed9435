import {
  Badge,
  Button,
  CloseButton,
  Drawer,
  HStack,
  Link,
  Portal,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import type { PlanPost } from '../../api/contract/matrix-plans';
import { draftOfPlan, planEditable, type MatrixPlansActors } from '../../app/actors/matrix-plans';
import { useListActor } from '../../app/hooks/use-list';
import { CopyButton } from '../../components/copy-button';
import { DataTable, type Column } from '../../components/data-table';
import { useT } from '../shared/use-t';
import { MarkPublishedDialog } from './mark-published-dialog';
import { formatInZone, POST_STATUS } from './plan-format';

/**
 * A plan's posts (the page machine's `detail` region): each post's account, video, title, time
 * in the plan's time zone, status, why it failed (the console's words, the platform's code and
 * words), its share link and numbers once published, and "publish now" (waiting) or "retry"
 * (failed and retryable). A waiting or missed post of an assisted account is a to-do: download
 * its video, copy its text, mark it published with its share link (a dialog). "Edit" (while the
 * plan has not started: docs/domain.md §20) opens the plan form with the plan filled in. `notice`
 * is the page's notice, shown here while the drawer covers it.
 */
export function PlanDetailDrawer(props: { area: MatrixPlansActors; notice: ReactNode }) {
  const t = useT();
  const { area } = props;
  const plan = useSelector(area.page, (s) => (s.hasTag('detail') ? s.context.detail : null));
  // The plan as the list last showed it: what an edit starts from.
  const full = useSelector(area.plans, (s) =>
    plan ? (s.context.rows.find((r) => r.id === plan.id) ?? null) : null,
  );
  const close = () => area.page.send({ type: 'CLOSE_DETAIL' });
  return (
    <Drawer.Root
      open={plan !== null}
      placement="end"
      size="xl"
      onOpenChange={(e) => {
        if (!e.open) close();
      }}
    >
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content data-testid="plan-detail">
            <Drawer.Header>
              <Drawer.Title>
                {plan ? t('matrixPlans.detailTitle', { name: plan.name }) : ''}
              </Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>
              {plan && (
                <Stack gap="3">
                  {props.notice}
                  <HStack justify="space-between" gap="2">
                    <Text fontSize="sm" color="fg.muted">
                      {t('matrixPlans.timesIn', { timezone: plan.timezone })}
                    </Text>
                    <HStack gap="1">
                      {full && planEditable(full) && (
                        <Button
                          size="xs"
                          variant="outline"
                          aria-label={t('matrixPlans.editOf', { name: full.name })}
                          onClick={() =>
                            area.form.send({
                              type: 'OPEN',
                              planId: full.id,
                              draft: draftOfPlan(full),
                            })
                          }
                        >
                          {t('matrixPlans.edit')}
                        </Button>
                      )}
                      {/* Posts move on at the platform (review, publication): asked for again. */}
                      <Button
                        size="xs"
                        variant="ghost"
                        onClick={() => area.posts.send({ type: 'RELOAD' })}
                      >
                        {t('matrixPlans.refreshPosts')}
                      </Button>
                    </HStack>
                  </HStack>
                  <PostTable area={area} timezone={plan.timezone} />
                </Stack>
              )}
              <MarkPublishedDialog actor={area.markPublished} />
            </Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('form.close')} />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}

function PostTable(props: { area: MatrixPlansActors; timezone: string }) {
  const t = useT();
  const list = useListActor(props.area.posts);
  return (
    <DataTable
      label={t('matrixPlans.postList')}
      testId="plan-posts"
      columns={usePostColumns(props.area, props.timezone)}
      rowKey={(r) => r.id}
      emptyText={t('matrixPlans.noPosts')}
      {...list.table}
    />
  );
}

function usePostColumns(area: MatrixPlansActors, timezone: string): Column<PlanPost>[] {
  const t = useT();
  const intl = useIntl();
  const acting = useSelector(area.page, (s) => s.context.post);
  const accounts = useSelector(area.accounts, (s) => s.context.data?.list ?? null);
  const nickname = (id: number) =>
    accounts?.find((a) => a.id === id)?.nickname ?? t('matrixPlans.accountId', { id });
  return [
    { key: 'account', header: t('matrixPlans.account'), cell: (r) => nickname(r.account_id) },
    { key: 'video', header: t('matrixPlans.video'), cell: (r) => r.media.name },
    { key: 'title', header: t('matrixPlans.title'), cell: (r) => r.title },
    {
      key: 'scheduled',
      header: t('matrixPlans.scheduledAt'),
      cell: (r) => formatInZone(intl.locale, timezone, r.scheduled_at),
    },
    {
      key: 'status',
      header: t('matrix.status'),
      cell: (r) => (
        <Badge size="sm" variant="subtle" colorPalette={POST_STATUS[r.status].palette}>
          {t(POST_STATUS[r.status].label)}
        </Badge>
      ),
    },
    {
      key: 'result',
      header: t('matrixPlans.result'),
      cell: (r) => <PostResult post={r} />,
    },
    {
      key: 'actions',
      header: t('matrix.colActions'),
      pinned: 'end',
      cell: (r) => {
        const name = `${nickname(r.account_id)} · ${r.title}`;
        return (
          <HStack gap="1">
            {assistedTodo(r) && (
              <>
                <Link
                  href={r.assisted!.download_url}
                  download
                  fontSize="xs"
                  aria-label={t('matrixPlans.downloadVideoOf', { name })}
                >
                  {t('matrixPlans.downloadVideo')}
                </Link>
                <CopyButton label={t('matrixPlans.copyTextOf', { name })} text={r.assisted!.text} />
                <Button
                  size="xs"
                  variant="outline"
                  aria-label={t('matrixPlans.markPublishedOf', { name })}
                  onClick={() => area.markPublished.send({ type: 'OPEN', target: r })}
                >
                  {t('matrixPlans.markPublished')}
                </Button>
              </>
            )}
            {r.status === 'waiting' && !r.assisted && (
              <Button
                size="xs"
                variant="outline"
                aria-label={t('matrixPlans.publishNowOf', { name })}
                aria-busy={acting?.id === r.id}
                disabled={acting !== null}
                onClick={() => area.page.send({ type: 'PUBLISH_NOW', id: r.id })}
              >
                {t('matrixPlans.publishNow')}
              </Button>
            )}
            {r.status === 'failed' && r.reason?.retryable && (
              <Button
                size="xs"
                variant="outline"
                aria-label={t('matrixPlans.retryOf', { name })}
                aria-busy={acting?.id === r.id}
                disabled={acting !== null}
                onClick={() => area.page.send({ type: 'RETRY', id: r.id })}
              >
                {t('matrixPlans.retry')}
              </Button>
            )}
          </HStack>
        );
      },
    },
  ];
}

/** A post of an assisted account still to publish by hand (the dispatcher never sends it). */
const assistedTodo = (r: PlanPost) =>
  r.assisted !== null && (r.status === 'waiting' || r.status === 'missed');

/** Why a post failed, or where it is and its numbers once published. */
function PostResult(props: { post: PlanPost }) {
  const t = useT();
  const intl = useIntl();
  const { post } = props;
  const m = post.metrics;
  return (
    <Stack gap="1" fontSize="sm">
      {post.reason && (
        <Text color="fg.error" data-testid="post-reason">
          {post.reason.text}
          {post.reason.platform_code !== null &&
            ` ${t('matrixPlans.platformSaid', {
              code: post.reason.platform_code,
              text: post.reason.platform_text ?? '',
            })}`}
        </Text>
      )}
      {post.share_url && (
        <Link
          href={post.share_url}
          target="_blank"
          rel="noreferrer"
          aria-label={t('matrixPlans.openPostOf', { title: post.title })}
        >
          {t('matrixPlans.openPost')}
        </Link>
      )}
      {post.status === 'published' && (
        <Text color="fg.muted">
          {t('matrixPlans.metrics', {
            plays: intl.formatNumber(m.plays),
            likes: intl.formatNumber(m.likes),
            comments: intl.formatNumber(m.comments),
            shares: intl.formatNumber(m.shares),
          })}
        </Text>
      )}
    </Stack>
  );
}
