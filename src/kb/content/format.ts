// Presentation of subject content by file extension (RFD "File Format
// Handling"): Markdown and plain text pass through, everything else is
// wrapped in a fenced code block tagged with its language.

/** Extensions whose content is included as-is ('' is "no extension"). */
export const PASS_THROUGH = new Set(['md', 'txt', 'text', '']);

const LANGUAGES: Record<string, string> = {
  toml: 'toml',
  json: 'json',
  yaml: 'yaml',
  yml: 'yaml',
  rs: 'rust',
  py: 'python',
  js: 'javascript',
  ts: 'typescript',
};

/** The fence language tag for an extension: the mapped name, or the
 *  lower-case extension. */
export function languageOf(ext: string): string {
  const e = ext.toLowerCase();
  return Object.hasOwn(LANGUAGES, e) ? LANGUAGES[e] : e;
}

/** The longest run of consecutive backticks in `text`. */
export function longestBacktickRun(text: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) === 96) {
      run++;
      if (run > longest) longest = run;
    } else {
      run = 0;
    }
  }
  return longest;
}

/** Formats a subject's text for output. Pass-through formats are returned
 *  unchanged. Others become a fence of as many backticks as the longest
 *  backtick run in the content plus one (at least three), the content's
 *  trailing whitespace trimmed before the closing fence. A tag that cannot
 *  appear on a backtick fence line (a backtick or whitespace in it) is left
 *  out. */
export function formatContent(ext: string, text: string): string {
  const e = ext.toLowerCase();
  if (PASS_THROUGH.has(e)) return text;
  const body = text.trimEnd();
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(body) + 1));
  const lang = languageOf(e);
  const tag = /[`\s]/.test(lang) ? '' : lang;
  return body === '' ? `${fence}${tag}\n${fence}` : `${fence}${tag}\n${body}\n${fence}`;
}
