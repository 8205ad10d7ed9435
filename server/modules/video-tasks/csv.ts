/**
 * A small RFC 4180 reader (quotes, doubled quotes, CR/LF): the rows of a batch file as cells, or
 * the 1-based row where a quoted value is left open. A BOM is dropped; blank lines are skipped
 * but counted, so row numbers match a spreadsheet's.
 */
export function readCsv(
  text: string,
): { rows: { row: number; cells: string[] }[] } | { openAt: number } {
  const src = text.replace(/^\uFEFF/, '');
  const rows: { row: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let started = line;
  const endRow = () => {
    cells.push(cell);
    if (!(cells.length === 1 && cells[0].trim() === '')) rows.push({ row: started, cells });
    cells = [];
    cell = '';
  };
  for (let i = 0; i < src.length; i += 1) {
    const ch = src[i];
    if (quoted) {
      if (ch === '"') {
        if (src[i + 1] === '"') {
          cell += '"';
          i += 1;
        } else quoted = false;
      } else {
        if (ch === '\n') line += 1;
        cell += ch;
      }
      continue;
    }
    if (ch === '"' && cell.trim() === '') {
      quoted = true;
      cell = '';
    } else if (ch === ',') {
      cells.push(cell);
      cell = '';
    } else if (ch === '\r' || ch === '\n') {
      if (ch === '\r' && src[i + 1] === '\n') i += 1;
      endRow();
      line += 1;
      started = line;
    } else cell += ch;
  }
  if (quoted) return { openAt: started };
  if (cell !== '' || cells.length > 0) endRow();
  return { rows };
}
