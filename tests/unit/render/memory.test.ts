// The write tools' texts (render/memory.ts): every outcome app/memory.ts
// returns as data, as the model and the user read it.
import { describe, expect, test } from 'bun:test';
import { renderWriteOutcome } from '../../../src/render/memory.ts';
import type { WriteFailure, WriteOutcome, WriteTool } from '../../../src/answer/write.ts';

const fail = (tool: WriteTool, failure: WriteFailure): string => renderWriteOutcome({ tool, status: 'error', isError: true, failure });

describe('renderWriteOutcome', () => {
  test('written, duplicate, forgotten', () => {
    const written: WriteOutcome = { tool: 'remember', status: 'written', isError: false, topic: 'notes', slug: 'a', path: 'notes/a.md' };
    expect(renderWriteOutcome(written)).toBe('Remembered as subject "a" of topic "notes" (notes/a.md). Load it with learn, topic "notes", subjects "a".\n');
    expect(renderWriteOutcome({ ...written, near: { slug: 'b', similarity: 0.8449 } })).toBe(
      'Remembered as subject "a" of topic "notes" (notes/a.md) (written although "b" is similar: similarity 0.84). Load it with learn, topic "notes", subjects "a".\n',
    );
    expect(renderWriteOutcome({ ...written, checked: { compared: 1, left: 3, limit: 16 * 1048576 } })).toBe(
      'Remembered as subject "a" of topic "notes" (notes/a.md). Load it with learn, topic "notes", subjects "a". The duplicate check was bounded: it compared the text with 1 subject and left 3 out (at most 16 MiB of subjects are read while the topic is locked).\n',
    );
    expect(renderWriteOutcome({ tool: 'remember', status: 'duplicate', isError: false, topic: 'notes', slug: 'a' })).toBe(
      'Already remembered: subject "a" of topic "notes" says exactly this; nothing was written.\n',
    );
    expect(renderWriteOutcome({ ...written, near: { slug: 'b', similarity: 0.7 }, updateOf: true })).toBe(
      'Remembered as subject "a" of topic "notes" (notes/a.md) (written although it looks like an update of "b": similarity 0.70). Load it with learn, topic "notes", subjects "a".\n',
    );
    const revised: WriteOutcome = { tool: 'revise', status: 'revised', isError: false, topic: 'notes', slug: 'a', path: 'notes/a.md', history: { path: 'notes/.a.history.md', kept: 1, dropped: 0, limit: 10 } };
    expect(renderWriteOutcome(revised)).toBe(
      'Revised subject "a" of topic "notes" (notes/a.md). Its earlier text is kept in notes/.a.history.md (1 earlier text, newest first). Load it with learn, topic "notes", subjects "a".\n',
    );
    expect(renderWriteOutcome({ ...revised, history: { path: 'notes/.a.history.md', kept: 10, dropped: 1, limit: 10 } })).toBe(
      'Revised subject "a" of topic "notes" (notes/a.md). Its earlier text is kept in notes/.a.history.md (10 earlier texts, newest first). The history keeps the 10 latest (at most 1 MiB): the oldest was dropped. Load it with learn, topic "notes", subjects "a".\n',
    );
    expect(renderWriteOutcome({ tool: 'revise', status: 'unchanged', isError: false, topic: 'notes', slug: 'a' })).toBe('Subject "a" of topic "notes" already says exactly this; nothing was written.\n');
    expect(renderWriteOutcome({ tool: 'forget', status: 'forgotten', isError: false, topic: 'notes', slug: 'a', path: 'notes/a.md' })).toBe(
      'Forgot subject "a" of topic "notes": notes/a.md was removed. Version control keeps its history if it was committed.\n',
    );
  });

  test('every failure, one line', () => {
    const cases: [ReturnType<typeof fail>, string][] = [
      [fail('remember', { kind: 'unknown-topic', topic: 'x', valid: [{ id: 'notes' }] }), 'Unknown topic "x". Valid topics: notes.\n'],
      [fail('remember', { kind: 'disabled-topic', topic: 'off' }), 'Topic "off" is disabled; nothing is written to it.\n'],
      [
        fail('forget', { kind: 'not-writable', topic: 'docs', writable: ['notes'] }),
        'Topic "docs" is not writable here: `forget` writes only to the topics the server was started with (kb mcp --write TOPIC). Writable topics: notes.\n',
      ],
      [fail('remember', { kind: 'not-writable', topic: 'docs', writable: [] }), 'Topic "docs" is not writable here: `remember` writes only to the topics the server was started with (kb mcp --write TOPIC). Writable topics: (none).\n'],
      [fail('remember', { kind: 'failed', topic: 'notes', why: 'locked' }), 'Not written to topic "notes": locked.\n'],
      [fail('forget', { kind: 'failed', topic: 'notes', why: 'locked' }), 'Not removed from topic "notes": locked.\n'],
      [
        fail('remember', { kind: 'near-duplicate', topic: 'notes', similar: { slug: 'r', similarity: 0.9 }, source: 'model' }),
        'Not written: subject "r" of topic "notes" says nearly the same (similarity 0.90; no value or name differs). Load it with learn to compare. If yours says something new, call remember again with "force": true; if it says it better, call revise with topic "notes", slug "r" and your text.\n',
      ],
      [
        fail('remember', { kind: 'near-duplicate', topic: 'my notes', similar: { slug: 'r', similarity: 0.9 }, source: 'user' }),
        'Not written: subject "r" of topic "my notes" says nearly the same (similarity 0.90; no value or name differs). Load it with learn to compare. If yours says something new, run it again with --force; if it says it better, run kb revise \'my notes\' r with your text.\n',
      ],
      [
        fail('remember', { kind: 'update', topic: 'notes', similar: { slug: 'deploy-window', similarity: 0.66 }, was: ['Tuesday', '10:00'], now: ['Thursday', '14:00'], source: 'model' }),
        'Not written: this looks like an update of subject "deploy-window" of topic "notes", which says "Tuesday" "10:00" where yours says "Thursday" "14:00" (similarity 0.66). If yours replaces it, call revise with topic "notes", slug "deploy-window" and your text (its earlier text is kept); if both hold, call remember again with "force": true.\n',
      ],
      [
        fail('remember', { kind: 'update', topic: 'notes', similar: { slug: 'lead', similarity: 0.7 }, was: ['Priya'], now: [], source: 'user' }),
        'Not written: this looks like an update of subject "lead" of topic "notes", which says "Priya" where yours says nothing (similarity 0.70). If yours replaces it, run kb revise notes lead with your text (its earlier text is kept); if both hold, run it again with --force.\n',
      ],
      [fail('revise', { kind: 'failed', topic: 'notes', why: 'locked' }), 'Not revised in topic "notes": locked.\n'],
      [fail('revise', { kind: 'no-subject', topic: 'notes', slug: 'a' }), 'Not revised: topic "notes" has no subject "a". Revise takes an exact slug, as learn lists it.\n'],
      [fail('revise', { kind: 'kept', topic: 'notes', slug: 'h', why: 'hidden' }), 'Not revised: subject "h" of topic "notes" is hidden; hidden subjects are never revised by kb.\n'],
      [
        fail('revise', { kind: 'not-ours', topic: 'notes', slug: 'guide', source: 'model' }),
        'Not revised: subject "guide" of topic "notes" was not written by kb (its frontmatter has no `source: user` or `source: model`). Revising replaces a file someone wrote by hand; if that is meant, call revise again with "force": true (its earlier text is kept).\n',
      ],
      [
        fail('revise', { kind: 'cannot-revise', topic: 'notes', slug: 'a', why: 'is a symbolic link' }),
        'Not revised: subject "a" of topic "notes" is a symbolic link; nothing was changed.\n',
      ],
      [
        fail('remember', { kind: 'outside-workspace', topic: 'notes', subjects: 'notes', link: 'notes', to: '/elsewhere', real: '/elsewhere' }),
        'Not written to topic "notes": notes is a symbolic link to /elsewhere, outside the workspace; kb writes only inside the workspace, links resolved (reading follows the link).\n',
      ],
      [
        fail('forget', { kind: 'outside-workspace', topic: 'far', subjects: '../far', real: '/far' }),
        'Not removed from topic "far": its subjects directory "../far" is outside the workspace, at /far; kb writes only inside the workspace, links resolved (reading follows the link).\n',
      ],
      [fail('remember', { kind: 'slug-taken', topic: 'notes', slug: 'a', disabled: false }), 'Not written: topic "notes" already has a subject or folder "a"; choose another slug, or leave it out to have one made.\n'],
      [fail('remember', { kind: 'slug-taken', topic: 'notes', slug: 'd/a', disabled: true }), 'Not written: topic "notes" already has a disabled slug "d/a"; choose another slug.\n'],
      [fail('remember', { kind: 'cannot-place', topic: 'notes', rel: 'x.md', why: 'ignored' }), 'Not written to topic "notes": x.md cannot be written (ignored).\n'],
      [fail('remember', { kind: 'exists', path: 'notes/a.md' }), 'Not written: notes/a.md already exists; nothing was replaced.\n'],
      [fail('forget', { kind: 'no-subject', topic: 'notes', slug: 'a' }), 'Not removed: topic "notes" has no subject "a". Forget takes an exact slug, as learn lists it.\n'],
      [fail('forget', { kind: 'no-subject', topic: 'notes', slug: 'a.md', aliasOf: 'a' }), 'Not removed: topic "notes" has no subject "a.md". It is another name of subject "a". Forget takes an exact slug, as learn lists it.\n'],
      [fail('forget', { kind: 'kept', topic: 'notes', slug: 's/r', why: 'bundled' }), 'Not removed: "s/r" is a file bundled with an Agent Skill; edit the skill\'s folder by hand.\n'],
      [fail('forget', { kind: 'kept', topic: 'notes', slug: 's', why: 'skill' }), 'Not removed: "s" is an Agent Skill (a folder); remove its folder by hand.\n'],
      [fail('forget', { kind: 'kept', topic: 'notes', slug: 'h', why: 'hidden' }), 'Not removed: subject "h" of topic "notes" is hidden; hidden subjects are never removed by kb.\n'],
      [fail('forget', { kind: 'kept', topic: 'notes', slug: 'o', why: 'disabled' }), 'Not removed: subject "o" of topic "notes" is disabled; disabled subjects are never removed by kb.\n'],
      [fail('forget', { kind: 'cannot-remove', path: 'l/k.md', why: 'outside' }), 'Not removed: l/k.md cannot be removed (outside).\n'],
    ];
    for (const [got, want] of cases) expect(got).toBe(want);
  });
});
