// The write tools' texts that do not depend on the files (app/memory.ts
// writes the others beside the facts they report).

export function renderBadWriteArguments(tool: string, problem: string): string {
  const expected =
    tool === 'remember' ? '{"topic": string, "text": string, "slug"?: string, "description"?: string, "tags"?: string[], "force"?: boolean}' : '{"topic": string, "slug": string}';
  return `Invalid arguments for \`${tool}\`: ${problem}. Expected ${expected}.\n`;
}
