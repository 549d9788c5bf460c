// The learn tool's core, shared by `kb learn` (which streams the text to
// stdout) and `kb mcp` (which returns it as a tool result): a validated call
// against the configured topics yields the model-facing text in pieces, one
// per subject, so a large load never has to be held in memory by `kb learn`.
import type { Topic } from '../config/types.ts';
import { readBytes, type FormattedBytes } from '../kb/content/body.ts';
import type { ReaderThread } from '../kb/fs/probe-thread.ts';
import { isRaw, listable, loadPatterns, openTopic, openTopicSniffing, readText, sniffSubject } from '../kb/index/view.ts';
import { endWithNewlineBytes, subjectBlockBytes } from '../render/bytes.ts';
import { renderBadArguments, renderListing, renderNote, renderUnknownTopic, type Note } from '../render/learn.ts';
import { subjectBlock } from '../render/prompt.ts';
import { endWithNewline } from '../render/text.ts';
import { validateLearnArgs, type LearnArgs } from './args.ts';
import { resolveTopic } from './topic.ts';

/** Model-facing text, or a warning for the user (stderr, never the model).
 *  With `bytes`, a subject comes as `head`, `body` (its file's bytes, valid
 *  only until the next piece is asked for) and `tail`, together the UTF-8
 *  encoding of the text the piece would otherwise be. */
export type LearnPiece =
  | { kind: 'text'; text: string }
  | { kind: 'bytes'; head: string; body: Uint8Array; tail: string }
  | { kind: 'warning'; message: string };

export interface RunOptions {
  /** Subjects as bytes (see LearnPiece). */
  bytes?: boolean;
  /** A reader thread sharing the sniffing of a listing (thread.ts). */
  thread?: ReaderThread;
}

/**
 * Runs one learn call. Yields the result text in order (plus warnings) and
 * returns whether the call is an error: an unknown topic, or subjects asked
 * for and none returned (`kb learn` exits 1, MCP sets `isError`).
 */
export function* runLearn(topics: readonly Topic[], args: LearnArgs, opts: RunOptions = {}): Generator<LearnPiece, boolean> {
  const topic = resolveTopic(topics, args.topic);
  if (!topic) {
    yield text(renderUnknownTopic(args.topic, topics.filter((t) => t.enable)));
    return true;
  }
  if (args.subjects === null) {
    // A listing sniffs nearly every file: a reader thread starts on them
    // while the directory is walked.
    const view = opts.thread ? openTopicSniffing(topic, opts.thread.sniffFeed()) : openTopic(topic);
    // Binaries matched by a learned glob were never pre-loaded: not named.
    const learned = view.learned.filter((m) => sniffSubject(view, m.subject) !== 'binary');
    yield text(renderListing(topic, listable(view, opts.thread?.sniff).map((s) => s.slug), learned.map((m) => m.subject.slug)));
    return false;
  }
  const view = openTopic(topic);
  const raw = isRaw(view, args.subjects);
  const notes: Note[] = [];
  let loaded = 0;
  const read = opts.bytes ? readBytes : readText;
  for (const item of loadPatterns<string | FormattedBytes>(view, args.subjects, read)) {
    if (item.kind !== 'subject') {
      notes.push(item);
      continue;
    }
    if (item.replaced) {
      yield { kind: 'warning', message: `subject "${item.slug}" of topic "${topic.id}" has byte sequences that are invalid in its encoding; they were replaced with U+FFFD` };
    }
    const sep = loaded > 0 ? '\n\n' : '';
    const c = item.content;
    if (typeof c === 'string') yield text(raw ? endWithNewline(c) : `${sep}${subjectBlock(item.slug, c)}`);
    else yield raw ? endWithNewlineBytes(c) : subjectBlockBytes(sep, item.slug, c);
    loaded++;
  }
  if (notes.length > 0) yield text(`${loaded > 0 ? '\n\n' : ''}${notes.map((n) => renderNote(n, topic.id)).join('\n')}`);
  if (!raw || loaded === 0) yield text('\n');
  return loaded === 0;
}

function text(t: string): LearnPiece {
  return { kind: 'text', text: t };
}

export interface LearnResult {
  /** Exactly what `kb learn` prints on stdout for the same call. */
  text: string;
  isError: boolean;
  warnings: string[];
}

/** A whole learn call, arguments exactly as a model sent them (untrusted):
 *  bad arguments are an error result, like an unknown topic. */
export function learnCall(topics: readonly Topic[], value: unknown): LearnResult {
  const parsed = validateLearnArgs(value);
  if (!parsed.ok) return { text: renderBadArguments(parsed.problem), isError: true, warnings: [] };
  const parts: string[] = [];
  const warnings: string[] = [];
  const run = runLearn(topics, parsed.args);
  let step = run.next();
  while (!step.done) {
    if (step.value.kind === 'text') parts.push(step.value.text);
    else if (step.value.kind === 'warning') warnings.push(step.value.message);
    step = run.next();
  }
  return { text: parts.join(''), isError: step.value, warnings };
}
