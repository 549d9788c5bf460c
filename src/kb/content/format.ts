// Presentation of subject content by file extension (RFD "File Format
// Handling"): Markdown and plain text pass through, everything else is
// wrapped in a fenced code block tagged with its language. One formatter
// for text and bytes bodies alike (body.ts).

import { bodyText, longestBacktickRun, trimEnd, trimNewlines, type Body } from './body.ts';

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

/** A subject's content, formatted: `head` + `body` + `tail`, in that order. */
export interface Formatted {
  head: string;
  body: Body;
  tail: string;
}

// Per extension, as written: undefined for pass-through formats, else the
// fence's language tag, worked out once per extension.
const tags = new Map<string, string | undefined>();

/** The fence tag for `ext`, or undefined when the format passes through. A
 *  tag that cannot appear on a backtick fence line (a backtick or
 *  whitespace in it) is left out. */
export function fenceTag(ext: string): string | undefined {
  if (tags.has(ext)) return tags.get(ext);
  const e = ext.toLowerCase();
  let tag: string | undefined;
  if (!PASS_THROUGH.has(e)) {
    const lang = languageOf(e);
    tag = /[`\s]/.test(lang) ? '' : lang;
  }
  if (tags.size < 256) tags.set(ext, tag); // a topic has a handful of extensions
  return tag;
}

/** Formats a subject's content for output. Pass-through formats are
 *  returned unchanged. Others become a fence of as many backticks as the
 *  longest backtick run in the content plus one (at least three), the
 *  content's trailing whitespace trimmed before the closing fence. */
export function formatContent(ext: string, content: Body): Formatted {
  const tag = fenceTag(ext);
  if (tag === undefined) return { head: '', body: content, tail: '' };
  const body = trimEnd(content);
  const run = longestBacktickRun(body);
  const fence = run < 3 ? '```' : '`'.repeat(run + 1);
  return { head: `${fence}${tag}\n`, body, tail: body.length === 0 ? fence : `\n${fence}` };
}

/** `f` with its trailing line breaks dropped, as if trimmed as one text:
 *  content is placed before a closing tag or at the end of the output,
 *  which adds its own newline. */
export function trimTrailingNewlines(f: Formatted): Formatted {
  if (f.tail !== '') {
    const tail = trimNewlines(f.tail) as string;
    if (tail !== '') return tail === f.tail ? f : { head: f.head, body: f.body, tail };
  }
  const body = trimNewlines(f.body);
  if (body.length === f.body.length && body.length > 0) return f;
  return body.length > 0 ? { head: f.head, body, tail: '' } : { head: trimNewlines(f.head) as string, body, tail: '' };
}

/** The formatted content as one string. */
export function formattedText(f: Formatted): string {
  return f.head + bodyText(f.body) + f.tail;
}
