// The walk's bound, apart from the walk (fs/walk.ts): what reads a limit
// without walking (app/knowledge-base.ts, the caches' checks) loads none
// of it.

/** The most directory entries one walk reads (files, folders, links and
 *  anything else together). A link to `/` or `/proc` would otherwise walk a
 *  whole file system. Ten times what a large knowledge base holds. */
export const MAX_WALK_ENTRIES = 200_000;
