// Cleaning a topic's index before anything sees it: subjects no listing,
// tag or pattern could show or name faithfully are left out, each with a
// notice, and every notice is made printable on one line.

import { MAX_PATTERN_LENGTH } from '../../glob/index.ts';
import { CONTROL, SUSPECT_NAME, controlWord, escapeControls } from '../../shared/controls.ts';
import { notice, type Notice } from '../fs/walk.ts';
import type { Subject, SubjectIndex } from './types.ts';
import { map } from '../../shared/arrays.ts';

/** Subjects whose path holds a control character are left out, with a
 *  notice: in a listing or a `<subject "...">` tag, a name holding a newline
 *  could forge a line or a closing tag, one holding a bidirectional or
 *  zero-width character would show as another name (shared/controls.ts).
 *  So are subjects whose slug is longer than a pattern may be: no call could
 *  load them by the name a listing shows. Every notice is made printable on
 *  one line. */
export function cleanIndex(index: SubjectIndex): SubjectIndex {
  const notices: Notice[] = map(index.notices, (n) =>
    CONTROL.test(n.message) || CONTROL.test(n.where) ? { ...n, where: escapeControls(n.where), message: escapeControls(n.message) } : n,
  );
  // In the common case no name holds a control character or U+FFFD (what
  // undecodable() looks for), and none is long. The walk tells when no
  // name it read holds one (`plainNames`: it tested the names as read,
  // before any path was made of them); else one test of all the paths
  // joined (a test per path cost about 1 ms for 3,000), and a test per
  // path only when that one finds something.
  const all = index.subjects;
  let suspect = false;
  for (let i = 0; i < all.length; i++) {
    if (all[i].slug.length > MAX_PATTERN_LENGTH) {
      suspect = true;
      break;
    }
  }
  if (!suspect && index.plainNames !== true) {
    const paths: string[] = new Array(all.length);
    for (let i = 0; i < all.length; i++) paths[i] = all[i].path;
    if (SUSPECT_NAME().test(paths.join(''))) suspect = all.some((s) => CONTROL.test(s.path) || undecodable(s));
  }
  if (!suspect) return { ...index, notices };
  const subjects: Subject[] = [];
  for (const s of index.subjects) {
    if (CONTROL.test(s.path)) {
      const path = escapeControls(s.path);
      notices.push(notice('control-character', path, `file name contains ${controlWord(s.path)}, skipped: ${path}`));
    } else if (undecodable(s)) {
      notices.push(notice('unreadable', s.path, `file name is not valid UTF-8, skipped: ${s.path}`));
    } else if (s.slug.length > MAX_PATTERN_LENGTH) {
      notices.push(
        notice(
          'long-slug',
          s.path,
          `slug longer than ${MAX_PATTERN_LENGTH} characters (${s.slug.length}), skipped: no pattern can name it: ${s.path.slice(0, 60)}...`,
        ),
      );
    } else {
      subjects.push(s);
    }
  }
  return { ...index, subjects, notices };
}

/** Whether `cleanIndex` leaves a subject of this name out: anything that
 *  lists or serves a topic's files by another road (a skill's files over
 *  MCP) leaves out the same files. */
export function leftOutByName(s: Subject): boolean {
  return CONTROL.test(s.path) || undecodable(s) || s.slug.length > MAX_PATTERN_LENGTH;
}

/** A name whose bytes are not UTF-8 reaches kb with U+FFFD in place of
 *  them, so the path no longer names the file: it cannot be stat'ed. (Only
 *  paths holding U+FFFD are stat'ed here.) */
function undecodable(s: Subject): boolean {
  return s.path.includes('\uFFFD') && s.size === -1;
}
