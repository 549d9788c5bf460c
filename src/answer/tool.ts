// What each tool answers, as data: the outcome its run returns and, for a
// tool whose answer is streamed (learn), the events it produces as it
// runs. app/tools/ runs the tools and returns these; render/forms.ts
// writes each tool's outcome in its two forms (the model's text, and JSON
// for scripts), whose type is here too; the front ends pair the two by the
// tool's name. Types only.
import type { JsonSchemaObject } from '../shared/tool.ts';
import type { Chunk, LearnEvent } from './learn.ts';
import type { IndexReport, SearchFound } from './search.ts';
import type { WriteOutcome } from './write.ts';

/** What every outcome says: whether the call failed (`kb` exits 1, MCP
 *  sets `isError`). */
export interface Outcome {
  isError: boolean;
}

/** A learn call's outcome, after its events. */
export interface LearnOutcome extends Outcome {
  /** The topic's ID, or the topic as the call named it when no enabled
   *  topic has that ID or title. */
  topic: string;
}

/** A search's outcome: what it found, and how each topic's index was had
 *  (for --verbose). */
export interface SearchAnswer extends SearchFound, Outcome {
  indexes: readonly IndexReport[];
}

/** By tool name: what its run returns, and the events it streams
 *  (`never`: none, the outcome is the whole answer). */
export interface ToolAnswers {
  learn: { outcome: LearnOutcome; event: LearnEvent };
  search: { outcome: SearchAnswer; event: never };
  remember: { outcome: WriteOutcome; event: never };
  revise: { outcome: WriteOutcome; event: never };
  forget: { outcome: WriteOutcome; event: never };
}

/** The tools kb has (app/tools.ts lists them, in order). */
export type ToolName = keyof ToolAnswers;

export type OutcomeOf<N extends ToolName> = ToolAnswers[N]['outcome'];
export type EventOf<N extends ToolName> = ToolAnswers[N]['event'];

/** Where a form's output goes, chunk by chunk (a bytes chunk may be a
 *  view into a buffer the next read reuses: write or copy it now). */
export type Write = (chunk: Chunk) => void;

/** What is wrong with a call refused before it ran (app/tools/validate.ts
 *  `Refused`): the sentence, and the parameter it is about, if one. */
export interface Refusal {
  problem: string;
  key?: string;
}

/** The tool refused: its name and its parameters' schema. */
export interface RefusingTool {
  name: string;
  parameters: JsonSchemaObject;
}

/** One call's answer being written: its events as they come (a streamed
 *  answer), then its outcome; or its refusal alone. */
export interface Form<E, O> {
  event(e: E): void;
  end(o: O): void;
  refused(r: Refusal, tool: RefusingTool): void;
}

/** One call's answer gathered as one value: the object the JSON form
 *  writes, as data (MCP's `structuredContent`), once the call ended or was
 *  refused. */
export interface DataForm<E, O> extends Form<E, O> {
  value(): Record<string, unknown>;
}

/** A tool's forms, each made for one call: the text, the JSON, and the
 *  JSON's value (the same object, not written). */
export interface ToolForms<N extends ToolName> {
  text(write: Write): Form<EventOf<N>, OutcomeOf<N>>;
  json(write: Write): Form<EventOf<N>, OutcomeOf<N>>;
  data(): DataForm<EventOf<N>, OutcomeOf<N>>;
}
