import { Box, Button, HStack, Input } from '@chakra-ui/react';
import Image from '@tiptap/extension-image';
import TextAlign from '@tiptap/extension-text-align';
import { TableKit } from '@tiptap/extension-table';
import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useState } from 'react';
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

/**
 * The article editor (TipTap; loaded only with the content pages): headings, lists, links,
 * bold / italic / underline, alignment, tables. `onChange` receives its HTML, which the server
 * sanitises on save.
 */
export default function RichTextEditor(props: {
  value: string;
  onChange: (html: string) => void;
  label: string;
}) {
  const t = useT();
  const [linkUrl, setLinkUrl] = useState('');
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
      </HStack>
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
