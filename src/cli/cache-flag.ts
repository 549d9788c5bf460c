// `--no-cache` (learn, search, recall, mcp): neither read nor write kb's
// caches on disk: search indexes are built in memory (kb/search/cache.ts),
// and a listing reads every file's head (kb/fs/head-cache.ts).
export const NO_CACHE_ARG = {
  'no-cache': { type: 'boolean', description: "Neither read nor write kb's caches on disk (search indexes; the heads, walk and frontmatter a listing read)" },
} as const;
