// A path's status without a throw, for the places that only ask whether
// something is there and what it is.

import { statSync, type Stats } from 'node:fs';

/** `path`'s status (links followed); undefined when it is not there or
 *  cannot be stat'ed (a dangling link, no permission on a folder on the
 *  way, gone meanwhile). */
export function statOrNone(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
