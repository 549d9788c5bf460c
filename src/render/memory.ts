// The write tools' answers (remember, revise, forget): app/memory.ts and
// app/revise.ts return what happened as data (`WriteOutcome`), and this is
// the one place it becomes the model's (and the user's) text, or JSON for
// scripts (schemas/kb-remember-output.schema.json and its two siblings).
// Pure.
import { escapeControls, jsonDocument, quoted } from '../shared/controls.ts';
import { renderUnknownTopic } from './learn.ts';
import type { Similar, Source, WriteFailure, WriteOutcome, WriteTool } from '../answer/write.ts';
import type { ToolForms, Write } from '../answer/tool.ts';
import { refusedError, renderRefused, topicsJson, wholeData } from './tools.ts';

/** The text of a remember or forget call's outcome, one line. */
export function renderWriteOutcome(o: WriteOutcome): string {
  const text = renderOutcome(o);
  return o.created === undefined ? text : `${text.trimEnd()} The topic's folder ${escapeControls(o.created)} did not exist; it was created.\n`;
}

function renderOutcome(o: WriteOutcome): string {
  if (o.failure !== undefined) {
    const text = renderFailure(o.tool, o.failure);
    return text.endsWith('\n') ? text : `${text}\n`;
  }
  switch (o.status) {
    case 'duplicate':
      return `Already remembered: subject ${quoted(o.slug ?? '')} of topic ${quoted(o.topic ?? '')} says exactly this; nothing was written.\n`;
    case 'revised': {
      const h = o.history;
      const kept = h === undefined ? '' : ` Its earlier text is kept in ${escapeControls(h.path)} (${h.kept} earlier text${h.kept === 1 ? '' : 's'}, newest first).`;
      const dropped = h === undefined || h.dropped === 0 ? '' : ` The history keeps the ${h.limit} latest (at most 1 MiB): ${h.dropped === 1 ? 'the oldest was' : `the ${h.dropped} oldest were`} dropped.`;
      return `Revised subject ${quoted(o.slug ?? '')} of topic ${quoted(o.topic ?? '')} (${escapeControls(o.path ?? '')}).${kept}${dropped} Load it with learn, topic ${quoted(o.topic ?? '')}, subjects ${quoted(o.slug ?? '')}.\n`;
    }
    case 'unchanged':
      return `Subject ${quoted(o.slug ?? '')} of topic ${quoted(o.topic ?? '')} already says exactly this; nothing was written.\n`;
    case 'forgotten': {
      const emptied = o.emptied === undefined ? '' : `, and so ${o.emptied.length === 1 ? 'was the folder it emptied' : 'were the folders it emptied'}: ${o.emptied.map((f) => escapeControls(f)).join(', ')}`;
      return `Forgot subject ${quoted(o.slug ?? '')} of topic ${quoted(o.topic ?? '')}: ${escapeControls(o.path ?? '')} was removed${emptied}. Version control keeps its history if it was committed.\n`;
    }
    default: {
      const near =
        o.near === undefined
          ? ''
          : o.updateOf
            ? ` (written although it looks like an update of ${quoted(o.near.slug)}: similarity ${o.near.similarity.toFixed(2)})`
            : ` (written although ${quoted(o.near.slug)} is similar: similarity ${o.near.similarity.toFixed(2)})`;
      const checked =
        o.checked === undefined
          ? ''
          : ` The duplicate check was bounded: it compared the text with ${o.checked.compared} subject${o.checked.compared === 1 ? '' : 's'} and left ${o.checked.left} out (at most ${o.checked.limit / 1048576} MiB of subjects are read while the topic is locked).`;
      return `Remembered as subject ${quoted(o.slug ?? '')} of topic ${quoted(o.topic ?? '')} (${escapeControls(o.path ?? '')})${near}. Load it with learn, topic ${quoted(o.topic ?? '')}, subjects ${quoted(o.slug ?? '')}.${checked}\n`;
    }
  }
}

function renderFailure(tool: WriteTool, f: WriteFailure): string {
  switch (f.kind) {
    case 'unknown-topic':
      return renderUnknownTopic(f.topic, f.valid);
    case 'disabled-topic':
      return `Topic ${quoted(f.topic)} is disabled; nothing is written to it.`;
    case 'not-writable':
      return `Topic ${quoted(f.topic)} is not writable here: \`${tool}\` writes only to the topics the server was started with (kb mcp --write TOPIC). Writable topics: ${f.writable.length > 0 ? f.writable.map(escapeControls).join(', ') : '(none)'}.`;
    case 'failed':
      return `${NOT_DONE[tool]} topic ${quoted(f.topic)}: ${escapeControls(f.why)}.`;
    case 'outside-workspace': {
      const where =
        f.link !== undefined
          ? `${escapeControls(f.link)} is a symbolic link to ${escapeControls(f.to ?? '')}, outside the workspace`
          : `its subjects directory ${quoted(f.subjects ?? '')} is outside the workspace, at ${escapeControls(f.real ?? '')}`;
      return `${NOT_DONE[tool]} topic ${quoted(f.topic)}: ${where}; kb writes only inside the workspace, links resolved (reading follows the link).`;
    }
    case 'near-duplicate': {
      const force = f.source === 'model' ? 'call remember again with "force": true' : 'run it again with --force';
      return (
        `Not written: subject ${quoted(f.similar.slug)} of topic ${quoted(f.topic)} says nearly the same (similarity ${f.similar.similarity.toFixed(2)}; no value or name differs). ` +
        `Load it with learn to compare. If yours says something new, ${force}; if it says it better, ${reviseHint(f.source, f.topic, f.similar.slug)}.`
      );
    }
    case 'update': {
      const force = f.source === 'model' ? 'call remember again with "force": true' : 'run it again with --force';
      const values = (v: readonly string[]) => (v.length === 0 ? 'nothing' : v.map(quoted).join(' '));
      return (
        `Not written: this looks like an update of subject ${quoted(f.similar.slug)} of topic ${quoted(f.topic)}, which says ${values(f.was)} where yours says ${values(f.now)} (similarity ${f.similar.similarity.toFixed(2)}). ` +
        `If yours replaces it, ${reviseHint(f.source, f.topic, f.similar.slug)} (its earlier text is kept); if both hold, ${force}.`
      );
    }
    case 'slug-taken':
      return `Not written: topic ${quoted(f.topic)} already has ${f.disabled ? 'a disabled slug' : 'a subject or folder'} ${quoted(f.slug)}; choose another slug${f.slug.includes('/') ? '' : ', or leave it out to have one made'}.`;
    case 'cannot-place':
      return `Not written to topic ${quoted(f.topic)}: ${escapeControls(f.rel)} cannot be written (${escapeControls(f.why)}).`;
    case 'exists':
      return `Not written: ${escapeControls(f.path)} already exists; nothing was replaced.`;
    case 'no-subject': {
      const what = tool === 'revise' ? 'Not revised' : 'Not removed';
      const verb = tool === 'revise' ? 'Revise' : 'Forget';
      return `${what}: topic ${quoted(f.topic)} has no subject ${quoted(f.slug)}.${f.aliasOf !== undefined ? ` It is another name of subject ${quoted(f.aliasOf)}.` : ''} ${verb} takes an exact slug, as learn lists it.`;
    }
    case 'kept':
      return renderKept(tool, f);
    case 'cannot-remove':
      return `Not removed: ${escapeControls(f.path)} cannot be removed (${escapeControls(f.why)}).`;
    case 'not-ours': {
      const force = f.source === 'model' ? 'call revise again with "force": true' : 'run it again with --force';
      return `Not revised: subject ${quoted(f.slug)} of topic ${quoted(f.topic)} was not written by kb (its frontmatter has no \`source: user\` or \`source: model\`). Revising replaces a file someone wrote by hand; if that is meant, ${force} (its earlier text is kept).`;
    }
    case 'cannot-revise':
      return `Not revised: subject ${quoted(f.slug)} of topic ${quoted(f.topic)} ${escapeControls(f.why)}; nothing was changed.`;
  }
}

/** What a failed write of `tool` says first. */
const NOT_DONE: Record<WriteTool, string> = { remember: 'Not written to', revise: 'Not revised in', forget: 'Not removed from' };

/** How to replace a subject's text, in the caller's terms. */
function reviseHint(source: Source, topic: string, slug: string): string {
  return source === 'model'
    ? `call revise with topic ${quoted(topic)}, slug ${quoted(slug)} and your text`
    : `run kb revise ${shellWord(topic)} ${shellWord(slug)} with your text`;
}

/** A word as a shell reads it: as it is when plain, else single-quoted. */
function shellWord(w: string): string {
  return /^[A-Za-z0-9._\/-]+$/.test(w) ? escapeControls(w) : `'${escapeControls(w).replace(/'/g, "'\\''")}'`;
}

function renderKept(tool: WriteTool, f: WriteFailure & { kind: 'kept' }): string {
  const [what, done] = tool === 'revise' ? ['Not revised', 'revised'] : ['Not removed', 'removed'];
  switch (f.why) {
    case 'bundled':
      return `${what}: ${quoted(f.slug)} is a file bundled with an Agent Skill; edit the skill's folder by hand.`;
    case 'skill':
      return `${what}: ${quoted(f.slug)} is an Agent Skill (a folder); ${tool === 'revise' ? 'edit' : 'remove'} its folder by hand.`;
    case 'hidden':
      return `${what}: subject ${quoted(f.slug)} of topic ${quoted(f.topic)} is hidden; hidden subjects are never ${done} by kb.`;
    case 'disabled':
      return `${what}: subject ${quoted(f.slug)} of topic ${quoted(f.topic)} is disabled; disabled subjects are never ${done} by kb.`;
  }
}

/** A similarity as JSON gives it: rounded to 3 decimals. */
function similarJson(s: Similar): { slug: string; similarity: number } {
  return { slug: s.slug, similarity: Math.round(s.similarity * 1000) / 1000 };
}

/** Why nothing was written, as data: the failure as the outcome has it,
 *  without who asked (the text's business), similarities rounded. */
export function failureJson(f: WriteFailure): Record<string, unknown> {
  switch (f.kind) {
    case 'unknown-topic':
      return { kind: f.kind, topic: f.topic, topics: topicsJson(f.valid) };
    case 'near-duplicate':
      return { kind: f.kind, topic: f.topic, similar: similarJson(f.similar) };
    case 'update':
      return { kind: f.kind, topic: f.topic, similar: similarJson(f.similar), was: f.was, now: f.now };
    case 'not-ours':
      return { kind: f.kind, topic: f.topic, slug: f.slug };
    case 'no-subject':
      return { kind: f.kind, topic: f.topic, slug: f.slug, ...(f.aliasOf !== undefined ? { alias_of: f.aliasOf } : {}) };
    default:
      return { ...f };
  }
}

/** A remember, revise or forget call's outcome as data, for scripts. */
export function writeJson(o: WriteOutcome): Record<string, unknown> {
  const out: Record<string, unknown> = { status: o.status };
  if (o.topic !== undefined) out.topic = o.topic;
  if (o.slug !== undefined) out.slug = o.slug;
  if (o.path !== undefined) out.path = o.path;
  if (o.existing !== undefined) out.existing = o.existing;
  if (o.near !== undefined) out.similar = { ...similarJson(o.near), update: o.updateOf === true };
  if (o.created !== undefined) out.created_folder = o.created;
  if (o.checked !== undefined) out.duplicate_check = { compared: o.checked.compared, left_out: o.checked.left, limit_bytes: o.checked.limit };
  if (o.history !== undefined) out.history = o.history;
  if (o.emptied !== undefined) out.emptied = o.emptied;
  if (o.failure !== undefined) out.error = failureJson(o.failure);
  return out;
}

/** The write tools' two forms (render/forms.ts): an answer comes whole. */
export const WRITE_FORMS: ToolForms<'remember' | 'revise' | 'forget'> = {
  text: (write: Write) => ({
    event: () => undefined,
    end: (o) => write(renderWriteOutcome(o)),
    refused: (r, tool) => write(renderRefused(r, tool)),
  }),
  json: (write: Write) => ({
    event: () => undefined,
    end: (o) => write(`${jsonDocument(writeJson(o))}\n`),
    refused: (r) => write(`${jsonDocument({ status: 'error', error: refusedError(r) })}\n`),
  }),
  data: () => wholeData(writeJson, (r) => ({ status: 'error', error: refusedError(r) })),
};
