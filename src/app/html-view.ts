// How `learn` shows an HTML page (kb/content/html.ts): as written, a fenced
// `html` block as the RFD presents every other format (the default), or as
// its text. Set by `--html raw|text` (learn, prompt, search, recall, mcp) or
// KB_HTML; search and recall read a page's text either way, and say in
// their text which view `learn` gives.
import type { HtmlView } from '../kb/content/html.ts';

export type { HtmlView } from '../kb/content/html.ts';

/** The environment variable that sets the view. */
export const HTML_ENV = 'KB_HTML';

/** The views, as `--html` and KB_HTML name them. */
export const HTML_VIEWS: readonly HtmlView[] = ['raw', 'text'];

/** A view as given: the view, or why the text is not one. */
export function parseHtmlView(text: string): { ok: true; view: HtmlView } | { ok: false; problem: string } {
  const t = text.trim().toLowerCase();
  return t === 'raw' || t === 'text' ? { ok: true, view: t } : { ok: false, problem: `"${text}" is not raw or text` };
}
