import { Button, HStack, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useIntl } from 'react-intl';
import {
  ARTICLE_CATEGORIES,
  ARTICLE_STATUSES,
  articleAddBody,
  type Article,
  type ArticleAddBody,
  type ArticleCategory,
  type ArticleStatus,
} from '../../api/contract/content';
import { acceptOf } from '../../api/contract/platform-image-rules';
import { useArea } from '../../app/actors/areas';
import {
  contentArea,
  NO_ARTICLE_FILTERS,
  type ArticleFilters,
  type ContentActors,
} from '../../app/actors/content';
import { useListActor } from '../../app/hooks/use-list';
import { DataTable, type Column } from '../../components/data-table';
import { FilterBar, FilterSelect, FilterText } from '../../components/filter-bar';
import { formatDateTime } from '../../components/dates';
import { FormField } from '../../components/form-field';
import { ImageUploadField } from '../../components/image-upload-field';
import { LoadingSpinner } from '../../components/loading-spinner';
import { Page } from '../../components/page';
import { formatText } from '../../i18n/intl';
import { CallDialog, ConfirmRowDialog, useCall } from '../shared/call-dialog';
import { SelectField, TextField } from '../../components/form-fields';
import { useT, type T } from '../shared/use-t';
import { withLaterTheme } from '../../app/routes/lazy';

/** The editor (TipTap) is a chunk of its own, fetched when the dialog opens. */
const RichTextEditor = lazy(withLaterTheme(() => import('./rich-text-editor')));

const CATEGORY_LABEL = {
  notice: 'content.category.notice',
  help: 'content.category.help',
  tutorial: 'content.category.tutorial',
} as const;
const STATUS_LABEL = {
  draft: 'content.status.draft',
  published: 'content.status.published',
} as const;

/**
 * /protocol/article (admin: the platform's articles; partner: its own, shown on its domains;
 * docs/domain.md "Articles and agreements"): a list with filters, the editor dialog and delete.
 * The content area owns the calls; this view selects and sends.
 */
export default function ArticlePage() {
  const t = useT();
  const area = useArea(contentArea);
  const list = useListActor(area.articles);
  const [draft, setDraft] = useState<ArticleFilters>(list.query.filters);
  const columns = useMemo(() => articleColumns(t, area), [t, area]);
  return (
    <Page
      title={t('route.article')}
      actions={
        <Button onClick={() => area.articleForm.send({ type: 'OPEN', target: null })}>
          {t('content.add')}
        </Button>
      }
    >
      <FilterBar
        label={t('content.filters')}
        onApply={() => list.setFilters(draft)}
        onReset={() => {
          setDraft(NO_ARTICLE_FILTERS);
          list.setFilters(NO_ARTICLE_FILTERS);
        }}
      >
        <FilterSelect
          label={t('content.category')}
          value={draft.category}
          onChange={(v) => setDraft((d) => ({ ...d, category: v as ArticleCategory | '' }))}
          options={ARTICLE_CATEGORIES.map((c) => ({ value: c, label: t(CATEGORY_LABEL[c]) }))}
        />
        <FilterSelect
          label={t('content.status')}
          value={draft.status}
          onChange={(v) => setDraft((d) => ({ ...d, status: v as ArticleStatus | '' }))}
          options={ARTICLE_STATUSES.map((s) => ({ value: s, label: t(STATUS_LABEL[s]) }))}
        />
        <FilterText
          label={t('content.keyword')}
          value={draft.keyword}
          onChange={(keyword) => setDraft((d) => ({ ...d, keyword }))}
        />
      </FilterBar>
      <DataTable
        label={t('content.articleTable')}
        testId="articles"
        columns={columns}
        rowKey={(r) => r.id}
        emptyText={t('content.empty')}
        {...list.table}
      />
      <ArticleDialog actor={area.articleForm} cover={area.cover} bodyImage={area.bodyImage} />
      <ConfirmRowDialog
        actor={area.articleDelete}
        title={(row) => t('content.deleteOf', { title: row.title })}
        what={() => t('content.deleteWhat')}
        submitLabel={t('content.delete')}
        payload={() => null}
      />
    </Page>
  );
}

function articleColumns(t: T, area: ContentActors): Column<Article>[] {
  return [
    { key: 'title', header: t('content.title'), cell: (r) => r.title },
    { key: 'category', header: t('content.category'), cell: (r) => t(CATEGORY_LABEL[r.category]) },
    { key: 'status', header: t('content.status'), cell: (r) => t(STATUS_LABEL[r.status]) },
    { key: 'sort', header: t('content.sort'), cell: (r) => r.sort, align: 'end' },
    { key: 'updated', header: t('content.updated'), cell: (r) => formatDateTime(r.updated_at) },
    {
      key: 'actions',
      header: t('content.actions'),
      pinned: 'end',
      cell: (r) => (
        <HStack gap="1">
          <Button
            size="xs"
            variant="outline"
            aria-label={t('content.editOf', { title: r.title })}
            onClick={() => area.articleForm.send({ type: 'OPEN', target: r })}
          >
            {t('content.edit')}
          </Button>
          <Button
            size="xs"
            variant="outline"
            colorPalette="red"
            aria-label={t('content.deleteOf', { title: r.title })}
            onClick={() => area.articleDelete.send({ type: 'OPEN', target: r })}
          >
            {t('content.delete')}
          </Button>
        </HStack>
      ),
    },
  ];
}

type ImageUploads = Pick<ContentActors, 'cover' | 'bodyImage'>;

function ArticleDialog(props: { actor: ContentActors['articleForm'] } & ImageUploads) {
  const call = useCall(props.actor);
  if (!call.open) return null;
  const row = call.target;
  return (
    <ArticleForm
      key={row?.id ?? 'new'}
      call={call}
      row={row}
      cover={props.cover}
      bodyImage={props.bodyImage}
    />
  );
}

function ArticleForm(
  props: {
    call: ReturnType<typeof useCall<Article, ArticleAddBody, Article>>;
    row: Article | null;
  } & ImageUploads,
) {
  const t = useT();
  const intl = useIntl();
  const { row } = props;
  const [title, setTitle] = useState(row?.title ?? '');
  const [category, setCategory] = useState<ArticleCategory>(row?.category ?? 'notice');
  const [status, setStatus] = useState<ArticleStatus>(row?.status ?? 'draft');
  const [sort, setSort] = useState(String(row?.sort ?? 0));
  const [content, setContent] = useState(row?.content ?? '');
  const [cover, setCover] = useState(row?.cover ?? '');
  // The cover's upload gives its image's address to this draft.
  useEffect(() => {
    const sub = props.cover.on('uploaded', ({ image }) => setCover(image.url));
    return () => sub.unsubscribe();
  }, [props.cover]);
  const coverSending = useSelector(props.cover, (s) =>
    s.hasTag('uploading') ? (s.context.file?.name ?? '') : null,
  );
  const coverFailed = useSelector(props.cover, (s) => s.context.error);
  const [errors, setErrors] = useState<Record<string, string>>({});
  return (
    <CallDialog
      call={props.call}
      title={row ? t('content.editOf', { title: row.title }) : t('content.add')}
      submitLabel={t('content.save')}
      onSubmit={() => {
        const parsed = articleAddBody.safeParse({ category, title, cover, content, sort, status });
        if (!parsed.success) {
          const next: Record<string, string> = {};
          for (const issue of parsed.error.issues) {
            const field = String(issue.path[0] ?? '');
            next[field] ??= formatText(intl, issue.message);
          }
          setErrors(next);
          return;
        }
        setErrors({});
        props.call.submit(parsed.data);
      }}
    >
      <TextField
        label={t('content.title')}
        value={title}
        onChange={setTitle}
        error={errors.title}
        required
      />
      <HStack gap="4" align="start">
        <SelectField
          label={t('content.category')}
          value={category}
          onChange={setCategory}
          options={ARTICLE_CATEGORIES.map((c) => ({ value: c, label: t(CATEGORY_LABEL[c]) }))}
        />
        <SelectField
          label={t('content.status')}
          value={status}
          onChange={setStatus}
          options={ARTICLE_STATUSES.map((s) => ({ value: s, label: t(STATUS_LABEL[s]) }))}
        />
        <TextField
          label={t('content.sort')}
          value={sort}
          onChange={setSort}
          inputMode="numeric"
          error={errors.sort}
        />
      </HStack>
      <ImageUploadField
        label={t('content.cover')}
        helper={t('content.coverHelp')}
        value={cover}
        accept={acceptOf('content')}
        uploading={coverSending}
        error={
          coverFailed
            ? formatText(intl, coverFailed.text, coverFailed.values)
            : (errors.cover ?? null)
        }
        onPick={(file) => props.cover.send({ type: 'PICK', file })}
        onClear={() => setCover('')}
        testId="article-cover"
      />
      <FormField label={t('content.body')} error={errors.content}>
        <Suspense fallback={<LoadingSpinner label={t('content.editorLoading')} />}>
          <RichTextEditor
            value={content}
            onChange={setContent}
            label={t('content.editor')}
            images={props.bodyImage}
          />
        </Suspense>
      </FormField>
      {errors.category && <Text color="fg.error">{errors.category}</Text>}
    </CallDialog>
  );
}
