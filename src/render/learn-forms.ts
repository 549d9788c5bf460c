// The learn tool's two forms (render/forms.ts): the model's text
// (render/learn.ts `learnText`, streamed), and JSON for scripts
// (schemas/kb-learn-output.schema.json), streamed too: each subject is
// written as its event comes, so a load of thousands never holds more
// than one subject's text. The object's other members (notes, what was
// left out, the topic) follow the subjects. Pure.
import { bodyText } from '../kb/content/body.ts';
import type { LearnEvent, Listing, Note } from '../answer/learn.ts';
import { escapeText, jsonDocument } from '../shared/controls.ts';
import type { DataForm, Form, LearnOutcome, ToolForms, Write } from '../answer/tool.ts';
import { learnText } from './learn.ts';
import { refusedJson, renderRefused, topicsJson } from './tools.ts';

/** `value` as JSON inside the document, indented to `depth` levels. */
function nested(value: unknown, depth: number): string {
  return jsonDocument(value).replace(/\n/g, `\n${'  '.repeat(depth)}`);
}

/** A JSON string, every character a terminal or a model must not see
 *  raw escaped (as `jsonDocument` does). */
function str(s: string): string {
  return escapeText(JSON.stringify(s));
}

/** A listing as data: the topic's own words, the subjects (and folders
 *  summed up), the pre-loaded ones, and how it was fitted. */
function listingJson(l: Listing): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (l.topic.title !== undefined) out.title = l.topic.title;
  if (l.topic.introduction !== undefined) out.introduction = l.topic.introduction;
  if (l.topic.description !== undefined) out.description = l.topic.description;
  if (l.folder !== undefined) out.folder = l.folder;
  out.subjects = l.items;
  out.learned = l.learned;
  if (l.fit !== undefined) {
    const { descriptionChars, collapsed, omitted, budget } = l.fit;
    out.fit = {
      ...(descriptionChars !== undefined ? { description_chars: descriptionChars } : {}),
      ...(collapsed !== undefined ? { collapsed } : {}),
      ...(omitted !== undefined ? { omitted } : {}),
      ...(budget !== undefined && Number.isFinite(budget) ? { budget } : {}),
    };
  }
  return out;
}

/** A note as data: as the call's events hold it. */
function noteJson(n: Note): Record<string, unknown> {
  return { ...n };
}

/** What follows the subjects, gathered as the events come. */
interface After {
  notes: Record<string, unknown>[];
  leftOut?: Record<string, unknown>;
  leftAfter?: Record<string, unknown>;
  topicNotes?: readonly unknown[];
  listing?: Record<string, unknown>;
  error?: Record<string, unknown>;
}

/** Takes an event that is not a subject into `after`; false for a
 *  subject or a window (the caller writes those). */
function gather(after: After, e: LearnEvent): boolean {
  switch (e.kind) {
    case 'unknown-topic':
      after.error = { kind: 'unknown-topic', topic: e.topic, topics: topicsJson(e.valid) };
      return true;
    case 'listing':
      after.listing = listingJson(e);
      after.topicNotes = e.topicNotes;
      return true;
    case 'subject':
    case 'window':
      return false;
    case 'note':
      after.notes.push(noteJson(e.note));
      return true;
    case 'left-out':
      after.leftOut = { count: e.count, tokens: e.tokens, budget: e.budget, next: e.call };
      return true;
    case 'left-after':
      after.leftAfter = { count: e.count, tokens: e.tokens, slug: e.slug };
      return true;
    case 'end':
      after.topicNotes = e.topicNotes;
      return true;
    case 'problem':
      return true;
  }
}

/** A subject or a window as its entry holds it, beside its slug and
 *  content (undefined: not one). */
function subjectOf(e: LearnEvent): { slug: string; content: string; more: Record<string, unknown> } | undefined {
  if (e.kind === 'subject') return { slug: e.slug, content: bodyText(e.content.body), more: e.skill === undefined ? {} : { skill: e.skill } };
  if (e.kind !== 'window') return undefined;
  const window = { from: e.from, to: e.to, total: e.total, lines: e.lines, ...(e.next !== undefined ? { next: e.next } : {}), ...(e.range !== undefined ? { range: e.range } : {}) };
  return { slug: e.slug, content: bodyText(e.body), more: { window } };
}

/** The members that follow the subjects (`topic` first when there were
 *  none), in the order the JSON form writes them. */
function restOf(after: After, subjects: number, topic: string): Record<string, unknown> {
  const rest: Record<string, unknown> = {};
  if (subjects === 0) rest.topic = topic;
  if (after.error !== undefined) rest.error = after.error;
  if (after.listing !== undefined) rest.listing = after.listing;
  if (after.listing === undefined && after.error === undefined) {
    if (subjects === 0) rest.subjects = [];
    rest.notes = after.notes;
    if (after.leftOut !== undefined) rest.left_out = after.leftOut;
    if (after.leftAfter !== undefined) rest.left_after = after.leftAfter;
  }
  if (after.topicNotes !== undefined && after.topicNotes.length > 0) rest.topic_notes = after.topicNotes;
  return rest;
}

/** A learn call's events and outcome as one JSON object, written as they
 *  come. */
export function learnJson(write: Write): Form<LearnEvent, LearnOutcome> {
  let subjects = 0;
  const after: After = { notes: [] };
  return {
    event(e) {
      const one = gather(after, e) ? undefined : subjectOf(e);
      if (one === undefined) return;
      write(subjects++ === 0 ? '{\n  "subjects": [\n    {\n' : ',\n    {\n');
      write(`      "slug": ${str(one.slug)},\n      "content": `);
      write(str(one.content));
      for (const [k, v] of Object.entries(one.more)) write(`,\n      ${JSON.stringify(k)}: ${nested(v, 3)}`);
      write('\n    }');
    },
    end(o) {
      const rest = restOf(after, subjects, o.topic);
      if (subjects === 0) {
        write(`${jsonDocument(rest)}\n`);
        return;
      }
      write('\n  ]');
      for (const [k, v] of Object.entries(rest)) write(`,\n  ${JSON.stringify(k)}: ${nested(v, 1)}`);
      write(`,\n  "topic": ${str(o.topic)}\n}\n`);
    },
    refused: (r) => write(`${jsonDocument(refusedJson(r))}\n`),
  };
}

/** The same object as `learnJson` writes, as data (nothing written: the
 *  subjects' texts are the strings read, not copies). */
export function learnData(): DataForm<LearnEvent, LearnOutcome> {
  const subjects: Record<string, unknown>[] = [];
  const after: After = { notes: [] };
  let value: Record<string, unknown> = {};
  return {
    event(e) {
      const one = gather(after, e) ? undefined : subjectOf(e);
      if (one !== undefined) subjects.push({ slug: one.slug, content: one.content, ...one.more });
    },
    end(o) {
      value = subjects.length === 0 ? restOf(after, 0, o.topic) : { subjects, ...restOf(after, subjects.length, o.topic), topic: o.topic };
    },
    refused: (r) => void (value = refusedJson(r)),
    value: () => value,
  };
}

export const LEARN_FORMS: ToolForms<'learn'> = {
  text: (write: Write) => ({ event: learnText(write), end: () => undefined, refused: (r, tool) => write(renderRefused(r, tool)) }),
  json: learnJson,
  data: learnData,
};
