// What a long-lived front end (`kb mcp`) keeps of a topic from one request
// to the next while its file watcher tells of no change there
// (kb/index/cache.ts). Apart from knowledge-base.ts, which every command
// imports: a one-shot command does not load the cache's code (it is
// passed to KnowledgeBase.open, as `cache`, only by the MCP server).
export { IndexCache } from '../kb/index/cache.ts';
