// `--html raw|text` (learn, prompt, search, recall, mcp) and KB_HTML: how
// loaded HTML pages are shown (app/html-view.ts).
import { HTML_ENV, parseHtmlView, type HtmlView } from '../app/html-view.ts';
import { UsageError } from '../shared/errors.ts';
import type { RunContext } from './command.ts';

export const HTML_ARG = {
  html: {
    type: 'string',
    valueHint: 'raw|text',
    description: `How HTML pages are loaded: raw (as written, the default) or text (no tags, styles or scripts); default ${HTML_ENV}`,
  },
} as const;

/** The view the command line or the environment sets: the flag, then
 *  KB_HTML, then raw. A malformed one is a usage error. */
export function htmlViewOf(ctx: RunContext): HtmlView {
  const flag = ctx.flags.html;
  if (typeof flag === 'string') {
    const v = parseHtmlView(flag);
    if (!v.ok) throw new UsageError(`invalid --html: ${v.problem}`, '--html');
    return v.view;
  }
  const env = ctx.env[HTML_ENV];
  if (env !== undefined && env !== '') {
    const v = parseHtmlView(env);
    if (!v.ok) throw new UsageError(`invalid ${HTML_ENV}: ${v.problem}`, HTML_ENV);
    return v.view;
  }
  return 'raw';
}
