/**
 * How a picked script's text goes into a form's field (docs/domain.md §23 "Scripts in the
 * forms"): a text area gets it on a line of its own after what is there; a one-line field takes
 * it as one line; a list of titles takes each of its lines as a title; topics take each word
 * (a leading `#` dropped), without repeats.
 */

/** What is typed, then the script on a new line (or the script alone in an empty field). */
export function appendScript(current: string, script: string): string {
  const kept = current.replace(/\s+$/, '');
  return kept ? `${kept}\n${script.trim()}` : script.trim();
}

/** The script as one line: its lines joined by a space. */
export function oneLine(script: string): string {
  return script
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .join(' ');
}

/** The titles after adding each line of the script that is not one of them yet. */
export function addTitleLines(titles: readonly string[], script: string): string[] {
  const next = [...titles];
  for (const line of script.split(/\r?\n/)) {
    const title = line.trim();
    if (title && !next.includes(title)) next.push(title);
  }
  return next;
}

/** The words of a topics text (spaces or commas between them, a leading `#` dropped). */
export const topicsOf = (text: string): string[] =>
  text
    .split(/[\s,，]+/)
    .map((word) => word.replace(/^#+/, ''))
    .filter(Boolean);

/** The topics text after adding the script's topics that are not in it yet. */
export function addTopics(current: string, script: string): string {
  const topics = topicsOf(current);
  for (const topic of topicsOf(script)) if (!topics.includes(topic)) topics.push(topic);
  return topics.join(' ');
}
