// The learn tool definition. The parameters are the RFD's schema, fixed
// text included, and never change with the configuration; the description
// names the topics that can be learned (NOTES 14).
import type { TopicLabel } from './topic.ts';

export const LEARN_PARAMETERS = {
  type: 'object',
  properties: {
    topic: {
      type: 'string',
      description: 'The topic ID or title to learn about.',
    },
    subjects: {
      type: ['string', 'array', 'null'],
      description: 'Glob pattern(s) for subjects to load. Use * for current level, ** for recursive. Omit to list available subjects.',
      items: { type: 'string' },
    },
  },
  required: ['topic'],
  additionalProperties: false,
} as const;

export interface ToolDefinition {
  name: 'learn';
  description: string;
  parameters: typeof LEARN_PARAMETERS;
}

export function learnDescription(topics: TopicLabel[]): string {
  const lines = topics.map((t) => (t.title ? `- ${t.id} (${t.title})` : `- ${t.id}`));
  return `Learn about knowledge base topics and subjects.\n\nAvailable topics:\n${lines.join('\n')}`;
}

export function learnTool(topics: TopicLabel[]): ToolDefinition {
  return { name: 'learn', description: learnDescription(topics), parameters: LEARN_PARAMETERS };
}
