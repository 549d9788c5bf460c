// Deno parity: the same sources under `deno run src/cli.ts` behave as the
// compiled binary does. tests/e2e runs every case on dist/kb; here deno runs
// the cases marked `test.parity` (tests/e2e/harness.ts, caseTest): at least
// one per command (prompt, learn, schema, check, list, search, recall,
// remember, forget, init, export; config-schema and __complete in tests/integrations;
// every command's --help page, which loads its module), and the paths where
// runtimes differ: stdin (--args -), a closed stdout, exit codes and usage
// errors, -q and --verbose, the reader thread, token budgets and windows,
// ignore files and frontmatter, the search cache, the write path. The MCP
// server is the last case.
import { describe, expect, test } from 'bun:test';
import * as budget from '../e2e/budget.cases.ts';
import * as cli from '../e2e/cli.cases.ts';
import * as exporting from '../e2e/export.cases.ts';
import * as folders from '../e2e/folders.cases.ts';
import * as formats from '../e2e/formats.cases.ts';
import * as init from '../e2e/init.cases.ts';
import * as large from '../e2e/large.cases.ts';
import * as lines from '../e2e/lines.cases.ts';
import * as memory from '../e2e/memory.cases.ts';
import * as memoryFolders from '../e2e/memory-folders.cases.ts';
import * as html from '../e2e/html.cases.ts';
import * as markup from '../e2e/markup.cases.ts';
import * as search from '../e2e/search.cases.ts';
import * as sites from '../e2e/sites.cases.ts';
import * as titles from '../e2e/titles.cases.ts';
import * as usage from '../e2e/usage.cases.ts';
import * as vault from '../e2e/vault.cases.ts';
import { connect, text } from '../e2e/mcp-client.ts';
import { BINARY, DENO_RUNNER, RFD_CONFIG, RFD_FILES, fixture, run } from '../e2e/harness.ts';

describe(DENO_RUNNER.name, () => {
  cli.cases(DENO_RUNNER);
  usage.cases(DENO_RUNNER);
  formats.cases(DENO_RUNNER);
  large.cases(DENO_RUNNER);
});
budget.cases(DENO_RUNNER);
folders.cases(DENO_RUNNER);
search.cases(DENO_RUNNER);
sites.cases(DENO_RUNNER);
lines.cases(DENO_RUNNER);
titles.cases(DENO_RUNNER);
memory.cases(DENO_RUNNER);
memoryFolders.cases(DENO_RUNNER);
init.cases(DENO_RUNNER);
vault.cases(DENO_RUNNER);
exporting.cases(DENO_RUNNER);
html.cases(DENO_RUNNER);
markup.cases(DENO_RUNNER);

describe('kb mcp under deno (same sources)', () => {
  test('initialize, call, read, stop', async () => {
    const root = fixture(RFD_FILES, RFD_CONFIG);
    const c = await connect(root, DENO_RUNNER);
    try {
      expect(c.client.getServerVersion()?.name).toBe('kb');
      expect(text(await c.client.callTool({ name: 'learn', arguments: { topic: 'skills', subjects: ['ast-grep/rules'] } }))).toBe('RULES-BODY\n');
      const search = await c.client.callTool({ name: 'search', arguments: { query: 'code quality' } });
      expect(text(search)).toBe(run(BINARY, root, ['search', '--args', '{"query":"code quality"}']).out);
      expect((await c.client.listResources()).resources.map((r) => r.uri)).toEqual(['kb://project/code-quality', 'kb://project/maintainers/jean', 'kb://project/maintainers/ryan', 'kb://skills/ast-grep']);
      expect(c.errors).toEqual([]);
    } finally {
      await c.client.close();
    }
  });
});
