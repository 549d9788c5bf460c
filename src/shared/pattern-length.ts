// How long a `learn` pattern may be (glob/pattern.ts refuses longer ones),
// apart from the glob machinery: a slug longer than this is left out of a
// topic's index (kb/index/clean.ts), since no call could name it.

export const MAX_PATTERN_LENGTH = 1024;
