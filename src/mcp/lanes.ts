// The order in which `kb mcp --http` answers the requests of many clients:
// two lanes, each answering one request at a time in the order read, side
// by side. The quick lane takes what reads a few named things (a `learn`
// of exact slugs, a resource, the tool and prompt lists); the heavy lane
// takes what goes through a whole topic or more (a listing, a glob, a
// search, recall, the prompt, `resources/list`) and every write. So a
// quick request waits for other quick requests only, never behind a
// search's index build or a listing of 10,000 subjects (those take their
// turns of the event loop, shared/pace.ts, and a quick request answers
// between them), and no two heavy requests run at once: two searches never
// build the same index side by side (each would hold it), and at most two
// requests hold their results at once.

export type Lane = 'quick' | 'heavy';

type Json = Record<string, unknown>;

/** The most exact slugs a `learn` call may name and still be quick. */
const QUICK_SUBJECTS = 8;

/** Methods that read a few named things, and are quick whatever their
 *  params. */
const QUICK_METHODS = new Set(['resources/read', 'resources/templates/list', 'tools/list', 'prompts/list', 'ping', 'initialize']);

/** The lane of a request of `method` with `params` (a request's params as
 *  read: anything). */
export function laneOf(method: string, params: unknown): Lane {
  if (QUICK_METHODS.has(method)) return 'quick';
  if (method !== 'tools/call' || params === null || typeof params !== 'object') return 'heavy';
  const { name, arguments: args } = params as Json;
  if (name !== 'learn' || args === null || typeof args !== 'object') return 'heavy';
  const given = (args as Json).subjects;
  const subjects = typeof given === 'string' ? [given] : given;
  if (!Array.isArray(subjects) || subjects.length === 0 || subjects.length > QUICK_SUBJECTS) return 'heavy';
  return subjects.every(isExactSlug) ? 'quick' : 'heavy';
}

/** A subject named by its slug (lines of it too: `slug:120-160`): no glob
 *  character, not a folder (`dir/`), not too long to be one. */
function isExactSlug(s: unknown): boolean {
  return typeof s === 'string' && s !== '' && s.length <= 1024 && !/[*?[\]{}!]/.test(s) && !s.endsWith('/');
}

/** Turns, one at a time, in the order asked. */
class Turns {
  private busy = false;
  private readonly waiting: (() => void)[] = [];

  get length(): number {
    return this.waiting.length;
  }

  /** A request runs: one entering now waits. */
  get taken(): boolean {
    return this.busy;
  }

  enter(): Promise<void> {
    if (!this.busy) {
      this.busy = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  leave(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.busy = false;
  }
}

/** The two lanes. */
export class Lanes {
  private readonly turns: Record<Lane, Turns> = { quick: new Turns(), heavy: new Turns() };

  /** Resolves when a request of `lane` may run. */
  enter(lane: Lane): Promise<void> {
    return this.turns[lane].enter();
  }

  /** The request that ran in `lane` is done: the next goes. */
  leave(lane: Lane): void {
    this.turns[lane].leave();
  }

  /** Whether a request entering `lane` now would wait. */
  occupied(lane: Lane): boolean {
    return this.turns[lane].taken;
  }

  /** Requests waiting in `lane` (for tests and --verbose). */
  waiting(lane: Lane): number {
    return this.turns[lane].length;
  }
}
