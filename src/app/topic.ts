// NOTES 10: a learn call's topic resolves by exact ID, then by
// case-insensitive title; a disabled topic does not resolve.
import type { Topic } from '../config/types.ts';

export function resolveTopic(topics: readonly Topic[], name: string): Topic | undefined {
  const enabled = topics.filter((t) => t.enable);
  const byId = enabled.find((t) => t.id === name);
  if (byId) return byId;
  const lower = name.toLowerCase();
  return enabled.find((t) => t.title !== undefined && t.title.toLowerCase() === lower);
}
