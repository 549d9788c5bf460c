// Each tool's answer in its two forms: the model's text (what `kb <tool>`
// prints and an MCP tool result holds), and JSON for scripts (`kb <tool>
// --format json`), whose shape schemas/kb-<tool>-output.schema.json
// documents. A front end runs a tool (app/tools.ts), takes the tool's forms
// from FORMS by its name, and writes the events and the outcome in the
// form it wants. Each tool's forms load with its renderer, when a call
// first asks for them.
import type { ToolForms, ToolName } from '../answer/tool.ts';

export type { DataForm, Form, Refusal, RefusingTool, ToolForms, Write } from '../answer/tool.ts';

/** The forms a front end may ask for. */
export const FORMATS = ['text', 'json'] as const;
export type Format = (typeof FORMATS)[number];

/** Every tool's forms, by name; each loader imports its renderer. */
export const FORMS: { readonly [N in ToolName]: () => Promise<ToolForms<N>> } = {
  learn: async () => (await import('./learn-forms.ts')).LEARN_FORMS,
  search: async () => (await import('./search.ts')).SEARCH_FORMS,
  remember: async () => (await import('./memory.ts')).WRITE_FORMS,
  revise: async () => (await import('./memory.ts')).WRITE_FORMS,
  forget: async () => (await import('./memory.ts')).WRITE_FORMS,
};

/** Each tool's forms once asked for: a long-lived server asks on every
 *  call, and a dynamic import of a module already loaded still costs about
 *  50 us. */
const asked = new Map<ToolName, Promise<ToolForms<ToolName>>>();

/** The forms of the tool `name` (a front end holds any tool). */
export function formsOf(name: ToolName): Promise<ToolForms<ToolName>> {
  let forms = asked.get(name);
  if (forms === undefined) {
    forms = FORMS[name]() as Promise<ToolForms<ToolName>>;
    asked.set(name, forms);
    // One that failed is asked for again next time.
    forms.catch(() => asked.delete(name));
  }
  return forms;
}
