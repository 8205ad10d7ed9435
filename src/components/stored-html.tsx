import { Box } from '@chakra-ui/react';

/**
 * A body as the server stored it: sanitised on save (docs/architecture.md "Rich text"). The
 * console renders only this stored HTML, never what an editor holds.
 */
export function StoredHtml(props: { html: string; label?: string }) {
  return (
    <Box
      className="rich-text"
      aria-label={props.label}
      css={{
        '& h2': { fontSize: 'xl', fontWeight: 'semibold', mt: '3' },
        '& h3': { fontSize: 'lg', fontWeight: 'semibold', mt: '2' },
        '& ul': { listStyleType: 'disc', pl: '6' },
        '& ol': { listStyleType: 'decimal', pl: '6' },
        '& a': { textDecoration: 'underline' },
        '& table': { borderCollapse: 'collapse' },
        '& td, & th': { borderWidth: '1px', px: '2' },
        '& img': { maxWidth: '100%' },
      }}
      dangerouslySetInnerHTML={{ __html: props.html }}
    />
  );
}
