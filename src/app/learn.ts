// The learn tool, shared by `kb learn` (which streams the text to stdout)
// and `kb mcp` (which returns it as a tool result): a validated call against
// the configured topics writes the model-facing text into a sink, chunk by
// chunk, one subject at a time, so a large load never has to be held in
// memory by `kb learn`.
import type { Topic } from '../config/types.ts';
import { compilePatterns } from '../glob/index.ts';
import { isRaw, listable, loadPatterns, kindOf, type ReadAs, type TopicView } from '../kb/index/view.ts';
import { rawContent, renderBadArguments, renderListing, renderNote, renderTopicNote, renderUnknownTopic, subjectBlock, type Chunk, type Note } from '../render/learn.ts';
import { warning, type Problem } from '../shared/problem.ts';
import { validateLearnArgs, type LearnArgs } from './args.ts';
import type { KnowledgeBase } from './knowledge-base.ts';
import { directoryNotes, directoryNotices, replacedProblem } from './topics.ts';

/** Where a learn call's result goes. */
export interface LearnSink {
  /** How subject bodies are wanted: `bytes` (as read, to stream them) or
   *  `text`. */
  readonly as: ReadAs;
  /** The next chunk of the model-facing text. A bytes chunk may be a view
   *  into a buffer that the next read reuses: write or copy it now. */
  write(chunk: Chunk): void;
  /** Something the user should know (stderr, never the model). */
  problem(p: Problem): void | Promise<void>;
  /** True once the sink takes no more text (a bound on one result, which
   *  the sink itself reports): no further subject is read. */
  full?(): boolean;
}

/** Tells the user (stderr) what the model is told about the topic's
 *  directory as a whole: missing, unreadable, or walked only in part. */
async function noteDirectory(topic: Topic, view: TopicView, sink: LearnSink): Promise<void> {
  for (const n of directoryNotices(view)) {
    const waiting = sink.problem(warning(n.code, `topic "${topic.id}": ${n.message}`));
    if (waiting) await waiting;
  }
}

/**
 * Runs one learn call and returns whether it is an error: an unknown topic,
 * a listing of a topic whose directory cannot be walked (missing,
 * unreadable), or subjects asked for and none returned (`kb learn` exits 1,
 * MCP sets `isError`). What the model is told about the topic's directory
 * (render/learn.ts `TopicNote`) is also told to the user.
 */
export async function learn(kb: KnowledgeBase, args: LearnArgs, sink: LearnSink): Promise<boolean> {
  const topic = kb.resolveTopic(args.topic);
  if (!topic) {
    sink.write(renderUnknownTopic(args.topic, kb.topics.filter((t) => t.enable)));
    return true;
  }
  if (args.subjects === null) {
    const view = kb.view(topic, true);
    await noteDirectory(topic, view, sink);
    // Binaries matched by a learned glob were never pre-loaded: not named.
    const learned = view.learned.filter((m) => kindOf(view, m.subject) !== 'binary');
    const notes = directoryNotes(view, kb.walkLimit);
    sink.write(renderListing(topic, listable(view).map((s) => s.slug), learned.map((m) => m.subject.slug), notes));
    return notes.some((n) => n.kind === 'no-directory');
  }
  const patterns = await compilePatterns(args.subjects);
  const view = kb.view(topic);
  await noteDirectory(topic, view, sink);
  const raw = isRaw(view, patterns);
  const notes: Note[] = [];
  let loaded = 0;
  for (const item of loadPatterns(view, patterns, sink.as)) {
    if (item.kind !== 'subject') {
      notes.push(item);
      continue;
    }
    if (item.replaced) {
      const waiting = sink.problem(replacedProblem(topic.id, item.slug));
      if (waiting) await waiting;
    }
    const out = raw ? rawContent(item.content) : subjectBlock(loaded > 0 ? '\n\n' : '', item.slug, item.content);
    sink.write(out.head);
    sink.write(out.body);
    sink.write(out.tail);
    loaded++;
    if (sink.full?.()) break;
  }
  // The directory notes first; a raw result (one exact subject, found) is
  // the content alone: the walk limit did not keep it from the model.
  const lines = raw && loaded > 0 ? [] : directoryNotes(view, kb.walkLimit).map((n) => renderTopicNote(n, topic.id));
  for (const n of notes) lines.push(renderNote(n, topic.id));
  if (lines.length > 0) sink.write(`${loaded > 0 ? '\n\n' : ''}${lines.join('\n')}`);
  if (!raw || loaded === 0) sink.write('\n');
  return loaded === 0;
}

export interface LearnResult {
  /** Exactly what `kb learn` prints on stdout for the same call. */
  text: string;
  isError: boolean;
  problems: Problem[];
}

/** A whole learn call, arguments exactly as a model sent them (untrusted):
 *  bad arguments are an error result, like an unknown topic. The text is
 *  joined. */
export async function call(kb: KnowledgeBase, value: unknown): Promise<LearnResult> {
  const parsed = validateLearnArgs(value);
  if (!parsed.ok) return { text: renderBadArguments(parsed.problem), isError: true, problems: [] };
  const parts: string[] = [];
  const problems: Problem[] = [];
  const sink: LearnSink = {
    as: 'text',
    write: (chunk) => {
      if (chunk.length > 0) parts.push(chunk as string);
    },
    problem: (p) => {
      problems.push(p);
    },
  };
  const isError = await learn(kb, parsed.args, sink);
  return { text: parts.join(''), isError, problems };
}

/** The reader thread's probe (kb/fs/probe-thread.ts), for a front end that
 *  lists large topics to plug in (`KnowledgeBase.open(…, { probe })`). Here,
 *  beside the one operation that wants it, so that no other command loads
 *  it. */
export { readerThread, type ReaderThread } from '../kb/fs/probe-thread.ts';
