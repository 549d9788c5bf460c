// Types of scripts/lib/notes-corpus.mjs.

/** `count` notes of `words` words each (strings, in order). */
export function notesCorpus(count: number, words?: number, seed?: number, vocabularySize?: number): string[];

/** A workspace at `root` with one topic, `notes`, of notesCorpus(count,
 *  words, seed), one Markdown file each; returns the topic's folder. */
export function writeNotesWorkspace(root: string, count: number, words?: number, seed?: number): string;
