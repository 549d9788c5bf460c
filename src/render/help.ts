// The text of `kb --help` and `kb <command> --help`: sections of rows
// (a label and its description) in two columns, descriptions wrapped to fit
// the width with a hanging indent, no line padded with trailing spaces.
// What the pages say comes from the command line's definitions (cli/help.ts).

export interface HelpRow {
  label: string;
  description: string;
}

export interface HelpPage {
  /** The first line: what the command does. */
  title: string;
  /** Command lines, without indentation. */
  usage: readonly string[];
  sections: readonly { heading: string; rows: readonly HelpRow[] }[];
  /** Example command lines with what each does. */
  examples: readonly HelpRow[];
  /** A closing line. */
  footer?: string;
}

/** Help lines never exceed this many columns. */
export const HELP_WIDTH = 100;
const INDENT = '  ';
const GAP = '   ';
/** A label longer than this puts its description on the next line, so that
 *  one long label does not push every description to the right. */
const MAX_LABEL = 30;
/** Where descriptions start when no label fits beside them. */
const MIN_COLUMN = 12;

export function renderHelp(page: HelpPage, width = HELP_WIDTH): string {
  const lines: string[] = [...wrap(page.title, width), ''];
  lines.push('USAGE', ...page.usage.flatMap((u) => wrap(u, width, INDENT, `${INDENT}    `)), '');
  // One column for every section, so that their descriptions line up.
  const column = columnOf(page.sections.flatMap((s) => s.rows));
  for (const { heading, rows } of page.sections) {
    if (rows.length === 0) continue;
    lines.push(heading, ...table(rows, column, width), '');
  }
  if (page.examples.length > 0) lines.push('EXAMPLES', ...table(page.examples, columnOf(page.examples), width), '');
  if (page.footer) lines.push(...wrap(page.footer, width), '');
  while (lines[lines.length - 1] === '') lines.pop();
  return `${lines.join('\n')}\n`;
}

/** Where the descriptions start: after the longest label that fits. */
function columnOf(rows: readonly HelpRow[]): number {
  const fitting = rows.map((r) => r.label.length).filter((n) => n <= MAX_LABEL);
  return Math.max(MIN_COLUMN, INDENT.length + Math.max(0, ...fitting) + GAP.length);
}

function table(rows: readonly HelpRow[], column: number, width: number): string[] {
  const hang = ' '.repeat(column);
  const out: string[] = [];
  for (const { label, description } of rows) {
    const head = `${INDENT}${label}`;
    if (description === '') {
      out.push(head);
    } else if (head.length + GAP.length <= column) {
      out.push(...wrap(description, width, head.padEnd(column), hang));
    } else {
      out.push(head, ...wrap(description, width, hang, hang));
    }
  }
  return out;
}

/** Words of `text` in lines of at most `width` columns: the first led by
 *  `first`, the others by `rest`. A word longer than a line stands alone. */
export function wrap(text: string, width: number, first = '', rest = first): string[] {
  const out: string[] = [];
  let line = first;
  let empty = true;
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (!empty && line.length + 1 + word.length > width) {
      out.push(line);
      line = rest;
      empty = true;
    }
    line += empty ? word : ` ${word}`;
    empty = false;
  }
  out.push(line.trimEnd());
  return out;
}
