// `--no-cache` (search, recall, mcp): build search indexes in memory,
// neither reading nor writing the cache (kb/search/cache.ts).
export const NO_CACHE_ARG = {
  'no-cache': { type: 'boolean', description: 'Neither read nor write the search index cache (build the index in memory)' },
} as const;
