import { Box, Button, HStack, Input, Text } from '@chakra-ui/react';
import Image from '@tiptap/extension-image';
import { Selection, TextSelection } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';
import TextAlign from '@tiptap/extension-text-align';
import { TableKit } from '@tiptap/extension-table';
import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import { acceptOf } from '../../api/contract/platform-image-rules';
import type { ImageUploadActor } from '../../app/actors/image-uploads';
import { formatText } from '../../i18n/intl';
import { useT } from '../shared/use-t';

/**
 * Paste from Word or a WeChat article: TipTap keeps only what its schema knows; before that, Word's
 * conditional comments, `mso-` styles and classes go (docs/architecture.md "Rich text"). What is
 * saved is cleaned again on the server: this is for a tidy editor, not for safety.
 */
export function cleanPastedHtml(html: string): string {
  return html
    .replace(/<!--\[if[\s\S]*?<!\[endif\]-->/gi, '')
    .replace(/<\/?o:p[^>]*>/gi, '')
    .replace(/\sclass="[^"]*"/gi, '')
    .replace(/\sstyle="([^"]*)"/gi, (_all, style: string) => {
      const kept = style
        .split(';')
        .map((rule) => rule.trim())
        .filter((rule) => /^text-align\s*:/i.test(rule));
      return kept.length ? ` style="${kept.join(';')}"` : '';
    });
}

/** The first image among pasted or dropped files, if any. */
function imageOf(files: FileList | undefined | null): File | undefined {
  return Array.from(files ?? []).find((file) => file.type.startsWith('image/'));
}

/** The file's name without its extension: the inserted image's alternative text. */
const altOf = (name: string) => name.replace(/\.[^.]*$/, '');

/**
 * The article editor (TipTap; loaded only with the content pages): headings, lists, links,
 * bold / italic / underline, alignment, tables, images. `onChange` receives its HTML, which the
 * server sanitises on save. Images are uploaded, never inlined (docs/domain.md §8 "Platform
 * images"): "Insert image", a pasted or a dropped image file go to `images` (the content area's
 * upload), and the uploaded image's address is inserted where the cursor (or the drop) was. A
 * pasted `data:` image is not taken (the Image extension refuses base64; the server strips one).
 */
export default function RichTextEditor(props: {
  value: string;
  onChange: (html: string) => void;
  label: string;
  images?: ImageUploadActor;
}) {
  const t = useT();
  const intl = useIntl();
  const [linkUrl, setLinkUrl] = useState('');
  const imageInput = useRef<HTMLInputElement>(null);
  // The editor's handlers are made once: they read the upload through this ref.
  const images = useRef(props.images);
  images.current = props.images;
  /** Sends a pasted or dropped image file to the upload; false when there is none to take. */
  const take = (view: EditorView, file: File | undefined, at?: number): boolean => {
    const upload = images.current;
    if (!file || !upload) return false;
    if (at !== undefined) {
      view.dispatch(view.state.tr.setSelection(TextSelection.near(view.state.doc.resolve(at))));
    }
    upload.send({ type: 'PICK', file });
    return true;
  };
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3, 4] },
        link: { openOnClick: false, protocols: ['mailto'], defaultProtocol: 'https' },
      }),
      TextAlign.configure({ types: ['heading', 'paragraph'] }),
      // Images stay only as links to our stored files: never inlined (base64) into the body.
      Image.configure({ allowBase64: false }),
      TableKit.configure({ table: { resizable: false } }),
    ],
    content: props.value,
    immediatelyRender: true,
    editorProps: {
      attributes: { 'aria-label': props.label, 'aria-multiline': 'true', role: 'textbox' },
      transformPastedHTML: cleanPastedHtml,
      handlePaste: (view, event) => take(view, imageOf(event.clipboardData?.files)),
      handleDrop: (view, event, _slice, moved) => {
        if (moved) return false;
        const at = view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos;
        return take(view, imageOf(event.dataTransfer?.files), at);
      },
    },
    onUpdate: ({ editor: e }) => props.onChange(e.getHTML()),
  });
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      h2: e.isActive('heading', { level: 2 }),
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      bullet: e.isActive('bulletList'),
      ordered: e.isActive('orderedList'),
      link: e.isActive('link'),
    }),
  });
  // Each uploaded image goes in where the cursor is (the drop moved it there).
  useEffect(() => {
    if (!props.images) return;
    const sub = props.images.on('uploaded', ({ image, name }) => {
      editor
        .chain()
        .focus()
        .setImage({ src: image.url, alt: altOf(name) })
        // The cursor after the image (not the image selected: the next one would replace it), in
        // a new paragraph when the image ends the body.
        .command(({ tr, state }) => {
          const after = tr.selection.to;
          const next = Selection.findFrom(tr.doc.resolve(after), 1, true);
          if (next) tr.setSelection(next);
          else {
            tr.insert(after, state.schema.nodes.paragraph!.create());
            tr.setSelection(TextSelection.create(tr.doc, after + 1));
          }
          return true;
        })
        .run();
    });
    return () => sub.unsubscribe();
  }, [props.images, editor]);
  const uploading = useSelector(props.images, (s) => s?.hasTag('uploading') ?? false);
  const failed = useSelector(props.images, (s) => s?.context.error ?? null);
  const chain = () => editor.chain().focus();
  const tool = (label: string, active: boolean, run: () => void) => (
    <Button
      size="xs"
      variant={active ? 'solid' : 'outline'}
      aria-pressed={active}
      onClick={run}
      key={label}
    >
      {label}
    </Button>
  );
  return (
    <Box borderWidth="1px" borderRadius="md">
      <HStack role="toolbar" aria-label={t('content.toolbar')} wrap="wrap" gap="1" p="2">
        {tool(t('content.heading'), state.h2, () => chain().toggleHeading({ level: 2 }).run())}
        {tool(t('content.bold'), state.bold, () => chain().toggleBold().run())}
        {tool(t('content.italic'), state.italic, () => chain().toggleItalic().run())}
        {tool(t('content.underline'), state.underline, () => chain().toggleUnderline().run())}
        {tool(t('content.bulletList'), state.bullet, () => chain().toggleBulletList().run())}
        {tool(t('content.orderedList'), state.ordered, () => chain().toggleOrderedList().run())}
        {tool(t('content.alignLeft'), false, () => chain().setTextAlign('left').run())}
        {tool(t('content.alignCenter'), false, () => chain().setTextAlign('center').run())}
        {tool(t('content.alignRight'), false, () => chain().setTextAlign('right').run())}
        {tool(t('content.table'), false, () =>
          chain().insertTable({ rows: 2, cols: 2, withHeaderRow: true }).run(),
        )}
        <Input
          size="xs"
          maxW="56"
          type="url"
          aria-label={t('content.linkUrl')}
          placeholder="https://"
          value={linkUrl}
          onChange={(e) => setLinkUrl(e.currentTarget.value)}
        />
        {tool(t('content.link'), state.link, () => {
          if (/^(https?:\/\/|mailto:)/i.test(linkUrl.trim())) {
            chain().extendMarkRange('link').setLink({ href: linkUrl.trim() }).run();
          }
        })}
        {tool(t('content.unlink'), false, () => chain().unsetLink().run())}
        {props.images && (
          <>
            <Button
              size="xs"
              variant="outline"
              disabled={uploading}
              onClick={() => imageInput.current?.click()}
            >
              {t('content.insertImage')}
            </Button>
            <input
              ref={imageInput}
              type="file"
              hidden
              accept={acceptOf('content')}
              aria-label={t('content.chooseImage')}
              onChange={(e) => {
                const file = e.currentTarget.files?.[0];
                e.currentTarget.value = '';
                if (file) props.images?.send({ type: 'PICK', file });
              }}
            />
          </>
        )}
      </HStack>
      <Box px="3" fontSize="sm" aria-live="polite">
        {uploading && <Text color="fg.muted">{t('content.imageUploading')}</Text>}
        {!uploading && failed && (
          <Text color="fg.error">{formatText(intl, failed.text, failed.values)}</Text>
        )}
      </Box>
      <Box
        px="3"
        pb="3"
        minH="48"
        css={{ '& .tiptap': { minHeight: '10rem', outline: 'none' } }}
        className="rich-text"
      >
        <EditorContent editor={editor} />
      </Box>
    </Box>
  );
}
