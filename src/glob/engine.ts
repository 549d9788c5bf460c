// The glob machinery proper: picomatch, which turns a glob into a regular
// expression, and the linear-time automaton that runs the ones the native
// engine could backtrack on. Loaded on demand (index.ts): a start that meets
// no glob never loads it.
import picomatch from 'picomatch';
import { Nfa } from './nfa.ts';

export const engine = { picomatch, Nfa };

export type GlobEngine = typeof engine;
