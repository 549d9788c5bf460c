// -k/--knowledge TOPIC/PATTERN: appends PATTERN to kb.topic.TOPIC.learned.

import { ConfigError, UsageError } from '../shared/errors.ts';
import { KB_KEY, TOPIC_KEY } from './fields.ts';
import type { Layer } from './merge.ts';

export interface Knowledge {
  topic: string;
  pattern: string;
  /** The flag as typed, `-k <value>`. */
  where: string;
}

/** Splits on the first `/`; both parts must be non-empty. */
export function parseKnowledge(value: string): Knowledge {
  const where = `-k ${value}`;
  const slash = value.indexOf('/');
  const topic = value.slice(0, slash);
  const pattern = value.slice(slash + 1);
  if (slash < 0 || topic === '' || pattern === '') {
    throw new UsageError('expected TOPIC/PATTERN, e.g. -k "project/maintainers/*"', where);
  }
  return { topic, pattern, where };
}

/** The layer for one -k value; the topic must be configured. */
export function knowledgeLayer(k: Knowledge, topicIds: readonly string[]): Layer {
  if (!topicIds.includes(k.topic)) {
    const valid = topicIds.length ? topicIds.join(', ') : '(none configured)';
    throw new ConfigError(`unknown topic "${k.topic}" in ${k.where}; valid topics: ${valid}`);
  }
  return {
    origin: { source: k.where, label: k.where },
    ops: [{ path: [KB_KEY, TOPIC_KEY, k.topic, 'learned'], value: [k.pattern], append: true }],
  };
}
