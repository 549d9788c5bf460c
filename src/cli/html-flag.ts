// `--html raw|text` (learn, prompt, search, recall, mcp) and KB_HTML: how
// loaded HTML pages are shown (app/html-view.ts).
import { HTML_ENV, parseHtmlView, type HtmlView } from '../app/html-view.ts';
import type { RunContext } from './command.ts';
import { settingOf } from './setting.ts';

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
  return settingOf<HtmlView>(ctx, 'html', HTML_ENV, (t) => {
    const v = parseHtmlView(t);
    return v.ok ? v.view : v;
  }, 'raw');
}
