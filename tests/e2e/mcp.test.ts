// End-to-end: `kb mcp` driven by the MCP SDK's own client (Client +
// StdioClientTransport) spawning the compiled binary in fixture workspaces.
// Results are compared with what the CLI prints for the same workspace.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { transcriptProblems } from '../support/mcp-schema.ts';
import { type Connection, connect, text } from './mcp-client.ts';
import { BIN, BINARY, RFD_CONFIG, RFD_FILES, fixture, isolatedEnv as env, run } from './harness.ts';

/** A rejected request's JSON-RPC code and message. */
async function rejection(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await p;
  } catch (e) {
    const err = e as { code: number; message: string };
    return { code: err.code, message: err.message };
  }
  throw new Error('the request succeeded');
}

// The RFD workspace, plus a disabled subject, a disabled topic, a binary
// file and a TOML subject.
const CONFIG = `${RFD_CONFIG.replace('subjects = ".jp/kb/project"\n', 'subjects = ".jp/kb/project"\ndisabled = ["maintainers/ryan"]\n')}
[kb.topic.archive]
enable = false
subjects = ".jp/kb/archive"
`;
const FILES: Record<string, string | Uint8Array> = {
  ...RFD_FILES,
  '.jp/kb/archive/old.md': 'old\n',
  '.jp/kb/skills/logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]),
  '.jp/kb/skills/cargo.toml': '[package]\nname = "example"\n',
};

describe('kb mcp (dist/kb, SDK client over stdio)', () => {
  const root = fixture(FILES, CONFIG);
  const cli = (...args: string[]) => run(BINARY, root, args);
  let c: Connection;

  beforeAll(async () => {
    c = await connect(root);
  });
  afterAll(async () => {
    await c.client.close();
  });

  test('initialize: server info, capabilities, instructions', () => {
    expect(c.client.getServerVersion()).toEqual({ name: 'kb', version: cli('--version').out.split(' ')[0] });
    const caps = c.client.getServerCapabilities();
    expect(caps?.tools).toBeDefined();
    expect(caps?.prompts).toBeDefined();
    expect(caps?.resources).toBeDefined();
    expect(c.client.getInstructions()).toContain('learn');
  });

  test('tools/list: the learn tool with the RFD schema and the search tool, as `kb schema --format mcp` prints them', async () => {
    const { tools } = await c.client.listTools();
    // 2025-11-25 (the SDK's): each also declares its outputSchema (mcp-structured.test.ts).
    const listed = tools.map(({ outputSchema, ...rest }) => {
      expect(outputSchema).toEqual(expect.objectContaining({ type: 'object', title: `kb ${rest.name} output` }));
      return rest;
    });
    expect(listed).toEqual([JSON.parse(cli('schema', '--format', 'mcp').out), JSON.parse(cli('schema', '--tool', 'search', '--format', 'mcp').out)]);
    expect(tools.map((t) => t.name)).toEqual(['learn', 'search']);
    expect(tools[0].inputSchema).toEqual(JSON.parse(cli('schema').out).parameters);
  });

  test('tools/call search: the same text as kb search --args; bad arguments are an error result', async () => {
    for (const args of [{ query: 'maintainers' }, { query: 'ast grep rules', topic: 'skills', limit: 2 }, { query: 'xylophone' }]) {
      const r = await c.client.callTool({ name: 'search', arguments: args });
      expect(text(r)).toBe(cli('search', '--args', JSON.stringify(args)).out);
      expect(r.isError).toBe(false);
    }
    const bad = await c.client.callTool({ name: 'search', arguments: { topic: 'skills' } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toStartWith('Invalid arguments for `search`: "query" is required.');
  });

  test('tools/call: listing, load, hidden exact: the same text as kb learn', async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [{ topic: 'skills' }, ['learn', 'skills']],
      [{ topic: 'skills', subjects: null }, ['learn', 'skills']],
      [{ topic: 'General Project Knowledge' }, ['learn', 'General Project Knowledge']],
      [{ topic: 'project', subjects: ['**'] }, ['learn', 'project', '**']],
      [{ topic: 'skills', subjects: 'ast-grep' }, ['learn', 'skills', 'ast-grep']],
      [{ topic: 'skills', subjects: ['cargo'] }, ['learn', 'skills', 'cargo']],
      [{ topic: 'skills', subjects: ['ast-grep/rules'] }, ['learn', 'skills', 'ast-grep/rules']],
    ];
    for (const [args, argv] of cases) {
      const result = await c.client.callTool({ name: 'learn', arguments: args });
      const expected = cli(...argv);
      expect(expected.code).toBe(0);
      expect({ args, isError: result.isError, text: text(result) }).toEqual({ args, isError: false, text: expected.out });
    }
    const hidden = await c.client.callTool({ name: 'learn', arguments: { topic: 'skills', subjects: ['ast-grep/rules'] } });
    expect(text(hidden)).toBe('RULES-BODY\n');
  });

  test('tools/call: an unknown topic, a disabled subject or no match is an isError result', async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [{ topic: 'nope' }, ['learn', 'nope']],
      [{ topic: 'archive' }, ['learn', 'archive']],
      [{ topic: 'project', subjects: ['maintainers/ryan'] }, ['learn', 'project', 'maintainers/ryan']],
      [{ topic: 'project', subjects: 'zzz*' }, ['learn', 'project', 'zzz*']],
    ];
    for (const [args, argv] of cases) {
      const result = await c.client.callTool({ name: 'learn', arguments: args });
      const expected = cli(...argv);
      expect(expected.code).toBe(1);
      expect({ args, isError: result.isError, text: text(result) }).toEqual({ args, isError: true, text: expected.out });
    }
    expect(text(await c.client.callTool({ name: 'learn', arguments: { topic: 'nope' } }))).toStartWith('Unknown topic "nope". Valid topics: project (General Project Knowledge), skills (Learnable Assistant Skills).');
  });

  test('tools/call: bad arguments are an isError result, as `kb learn --args` answers', async () => {
    const bad: Record<string, unknown>[] = [{}, { subjects: 'x' }, { topic: 1 }, { topic: 'skills', subjects: 1 }, { topic: 'skills', subjects: [1] }, { topic: 'skills', subject: 'ast-grep' }, { topic: '' }];
    for (const args of bad) {
      const result = await c.client.callTool({ name: 'learn', arguments: args });
      const expected = cli('learn', '--args', JSON.stringify(args));
      expect(expected.code).toBe(1);
      expect({ args, isError: result.isError, text: text(result) }).toEqual({ args, isError: true, text: expected.out });
      expect(text(result)).toStartWith('Invalid arguments for `learn`: ');
    }
    const none = await c.client.callTool({ name: 'learn' });
    expect(none.isError).toBe(true);
    expect(text(none)).toBe('Invalid arguments for `learn`: "topic" is required. Expected {"topic": string, "subjects"?: string | string[] | null}.\n');
  });

  test('tools/call: an unknown tool is a protocol error (-32602)', async () => {
    const err = await rejection(c.client.callTool({ name: 'forget', arguments: {} }));
    expect(err.code).toBe(-32602);
    expect(err.message).toContain('unknown tool "forget"');
  });

  test('prompts/list: the knowledge prompt with its optional pre-load argument', async () => {
    const { prompts } = await c.client.listPrompts();
    expect(prompts).toHaveLength(1);
    expect(prompts[0].name).toBe('knowledge');
    expect(prompts[0].arguments).toEqual([expect.objectContaining({ name: 'knowledge', required: false })]);
  });

  test('prompts/get: the <knowledge> section, as kb prompt prints it', async () => {
    const plain = await c.client.getPrompt({ name: 'knowledge' });
    expect(plain.messages).toEqual([{ role: 'user', content: { type: 'text', text: cli('prompt').out } }]);
    expect(cli('prompt').out).toStartWith('<knowledge>\nThe following knowledge topics are available to learn:');
  });

  test('prompts/get with the argument pre-loads subjects like -k', async () => {
    const one = await c.client.getPrompt({ name: 'knowledge', arguments: { knowledge: 'project/maintainers/*' } });
    const expected = cli('prompt', '-k', 'project/maintainers/*').out;
    expect(expected).toContain('<subject "maintainers/jean">\nJean maintains the CLI.\n</subject>');
    expect(one.messages).toEqual([{ role: 'user', content: { type: 'text', text: expected } }]);
    const two = await c.client.getPrompt({ name: 'knowledge', arguments: { knowledge: 'project/code-quality, skills/{ast-grep,cargo}\nskills/ast-grep/rules' } });
    const expectedTwo = cli('prompt', '-k', 'project/code-quality', '-k', 'skills/{ast-grep,cargo}', '-k', 'skills/ast-grep/rules').out;
    expect(expectedTwo).toContain('<subject "ast-grep/rules">');
    expect(two.messages).toEqual([{ role: 'user', content: { type: 'text', text: expectedTwo } }]);
  });

  test('prompts/get: an unknown topic or a malformed value in the argument, or an unknown prompt, is -32602', async () => {
    const unknown = await rejection(c.client.getPrompt({ name: 'knowledge', arguments: { knowledge: 'nope/x' } }));
    expect(unknown).toEqual({ code: -32602, message: expect.stringContaining('unknown topic "nope" in -k nope/x; valid topics: project, skills') });
    const malformed = await rejection(c.client.getPrompt({ name: 'knowledge', arguments: { knowledge: 'project' } }));
    expect(malformed).toEqual({ code: -32602, message: expect.stringContaining('expected TOPIC/PATTERN') });
    const other = await rejection(c.client.getPrompt({ name: 'other' }));
    expect(other.code).toBe(-32602);
  });

  test('resources/list: every visible subject; hidden, disabled, binary subjects and disabled topics never', async () => {
    const { resources } = await c.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['kb://project/code-quality', 'kb://project/maintainers/jean', 'kb://skills/ast-grep', 'kb://skills/cargo']);
    expect(resources[0]).toEqual({
      uri: 'kb://project/code-quality',
      name: 'project/code-quality',
      title: 'code-quality',
      description: 'Subject "code-quality" of topic project (General Project Knowledge)',
      mimeType: 'text/markdown',
    });
    const { resourceTemplates } = await c.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['kb://{topic}/{+slug}', 'kb://{topic}/{+slug}{?lines}']);
  });

  test('resources/read: the formatted content, as kb learn TOPIC SLUG prints it; hidden by exact URI', async () => {
    for (const [uri, argv] of [
      ['kb://project/code-quality', ['learn', 'project', 'code-quality']],
      ['kb://skills/cargo', ['learn', 'skills', 'cargo']],
      ['kb://skills/ast-grep/rules', ['learn', 'skills', 'ast-grep/rules']],
    ] as const) {
      const { contents } = await c.client.readResource({ uri });
      expect(contents).toEqual([{ uri, mimeType: 'text/markdown', text: cli(...argv).out }]);
    }
    const toml = await c.client.readResource({ uri: 'kb://skills/cargo' });
    expect((toml.contents[0] as { text: string }).text).toBe('```toml\n[package]\nname = "example"\n```\n');
  });

  test('resources/read: disabled, binary, unknown are -32002; a malformed URI is -32602', async () => {
    for (const uri of ['kb://project/maintainers/ryan', 'kb://archive/old', 'kb://skills/logo', 'kb://skills/nope', 'kb://nope/x']) {
      const err = await rejection(c.client.readResource({ uri }));
      expect({ uri, code: err.code }).toEqual({ uri, code: -32002 });
      expect(err.message).toContain(`resource not found: ${uri}`);
    }
    for (const uri of ['file:///etc/passwd', 'kb://project', 'kb://project/%E0%A4%A']) {
      expect({ uri, code: (await rejection(c.client.readResource({ uri }))).code }).toEqual({ uri, code: -32602 });
    }
  });

  test('stdout carries protocol messages only; nothing on stderr for a clean workspace', () => {
    expect(c.errors).toEqual([]);
    expect(c.stderr()).toBe('');
  });
});

describe('kb mcp re-reads configuration and files on each request', () => {
  test('a new subject, an edited subject and an edited config apply without a restart', async () => {
    const root = fixture(RFD_FILES, RFD_CONFIG);
    const c = await connect(root);
    try {
      const before = text(await c.client.callTool({ name: 'learn', arguments: { topic: 'skills' } }));
      expect(before).toContain('- ast-grep\n');
      expect(before).not.toContain('- new-skill');
      writeFileSync(join(root, '.jp/kb/skills/new-skill.md'), 'A new skill.\n');
      writeFileSync(join(root, '.jp/kb/skills/ast-grep.md'), 'Edited.\n');
      writeFileSync(join(root, '.jp/config.toml'), RFD_CONFIG.replace('title = "Learnable Assistant Skills"', 'title = "Renamed Skills"'));

      const after = text(await c.client.callTool({ name: 'learn', arguments: { topic: 'skills' } }));
      expect(after).toStartWith('# Topic: Renamed Skills\n');
      expect(after).toContain('- ast-grep\n- new-skill\n');
      expect(text(await c.client.callTool({ name: 'learn', arguments: { topic: 'skills', subjects: 'ast-grep' } }))).toBe('Edited.\n');
      expect((await c.client.listTools()).tools[0].description).toContain('- skills (Renamed Skills)');
      expect((await c.client.listResources()).resources.map((r) => r.uri)).toContain('kb://skills/new-skill');
      const prompt = await c.client.getPrompt({ name: 'knowledge' });
      expect((prompt.messages[0].content as { text: string }).text).toContain('- skills (**Renamed Skills**)');
      expect((await c.client.readResource({ uri: 'kb://skills/new-skill' })).contents[0]).toEqual({ uri: 'kb://skills/new-skill', mimeType: 'text/markdown', text: 'A new skill.\n' });
    } finally {
      await c.client.close();
    }
  });

  test('a broken config is reported per request and its fix applies without a restart; warnings go to stderr once', async () => {
    const root = fixture(RFD_FILES, RFD_CONFIG);
    const c = await connect(root);
    try {
      writeFileSync(join(root, '.jp/config.toml'), '[kb.topic.skills\nsubjects = "x"\n');
      const broken = await c.client.callTool({ name: 'learn', arguments: { topic: 'skills' } });
      expect(broken.isError).toBe(true);
      expect(text(broken)).toStartWith('The knowledge base cannot be used right now: invalid configuration: ');
      expect((await rejection(c.client.listResources())).code).toBe(-32603);

      writeFileSync(join(root, '.jp/config.toml'), RFD_CONFIG.replace('[kb.topic.skills]', '[kb.topic.skills]\ncolour = "blue"'));
      const fixed = await c.client.callTool({ name: 'learn', arguments: { topic: 'skills' } });
      expect(fixed.isError).toBe(false);
      await c.client.callTool({ name: 'learn', arguments: { topic: 'skills' } });
      const warnings = c.stderr().split('\n').filter((l) => l.includes('colour'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toStartWith('warning: ');
      expect(c.errors).toEqual([]);
    } finally {
      await c.client.close();
    }
  });

  test('kb mcp -q: no warnings on stderr; the answers are the same', async () => {
    const root = fixture(RFD_FILES, RFD_CONFIG.replace('[kb.topic.skills]', '[kb.topic.skills]\ncolour = "blue"'));
    const loud = await connect(root);
    try {
      expect(text(await loud.client.callTool({ name: 'learn', arguments: { topic: 'skills', subjects: ['ast-grep/rules'] } }))).toBe('RULES-BODY\n');
      // stderr and stdout are two pipes: the warning may arrive a moment later.
      for (let i = 0; i < 100 && loud.stderr() === ''; i++) await new Promise((r) => setTimeout(r, 20));
      expect(loud.stderr()).toStartWith('warning: unknown key `colour`');
    } finally {
      await loud.client.close();
    }
    const c = await connect(root, BINARY, ['-q']);
    try {
      expect(text(await c.client.callTool({ name: 'learn', arguments: { topic: 'skills', subjects: ['ast-grep/rules'] } }))).toBe('RULES-BODY\n');
      const search = await c.client.callTool({ name: 'search', arguments: { query: 'code quality' } });
      expect(text(search)).toBe(run(BINARY, root, ['search', '--args', '{"query":"code quality"}']).out);
      expect(c.stderr()).toBe('');
      expect(c.errors).toEqual([]);
    } finally {
      await c.client.close();
    }
  });
});

describe('kb mcp start and stop', () => {
  test('stdin closed: answers what it received, then exits 0; stdout holds only JSON-RPC messages', async () => {
    const root = fixture(RFD_FILES, RFD_CONFIG);
    const child = spawn(BIN, ['mcp'], { cwd: root, env: env(root), stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const messages = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'learn', arguments: { topic: 'project', subjects: ['**'] } } },
      { jsonrpc: '2.0', id: 3, method: 'resources/list' },
    ];
    child.stdin.end(messages.map((m) => JSON.stringify(m)).join('\n') + '\n');
    expect(await exited).toBe(0);
    expect(err).toBe('');
    const lines = out.split('\n').filter((l) => l !== '');
    const replies = lines.map((l) => JSON.parse(l));
    for (const r of replies) expect(r.jsonrpc).toBe('2.0');
    expect(replies.map((r) => r.id).sort()).toEqual([1, 2, 3]);
    expect(replies.find((r) => r.id === 2).result.content[0].text).toBe(run(BINARY, root, ['learn', 'project', '**']).out);
    expect(transcriptProblems(messages, out)).toEqual([]);
  });

  test('requests are answered one at a time, in the order they arrived', async () => {
    const root = fixture(RFD_FILES, RFD_CONFIG);
    const child = spawn(BIN, ['mcp'], { cwd: root, env: env(root), stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const call = (id: number, subjects: string[]) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'learn', arguments: { topic: 'project', subjects } } });
    const messages = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      call(2, ['**']),
      { jsonrpc: '2.0', id: 3, method: 'resources/list' },
      { jsonrpc: '2.0', id: 4, method: 'resources/read', params: { uri: 'kb://project/code-quality' } },
      call(5, ['maintainers/*']),
      { jsonrpc: '2.0', id: 6, method: 'tools/list' },
    ];
    child.stdin.end(messages.map((m) => JSON.stringify(m)).join('\n') + '\n');
    expect(await exited).toBe(0);
    const ids = out.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l).id);
    expect(ids).toEqual([1, 2, 3, 4, 5, 6]);
    expect(transcriptProblems(messages, out)).toEqual([]);
  });

  test('the SDK client closing the connection stops the server', async () => {
    const root = fixture(RFD_FILES, RFD_CONFIG);
    const c = await connect(root);
    const pid = c.transport.pid;
    expect(pid).toBeNumber();
    await c.client.close();
    expect(() => process.kill(pid!, 0)).toThrow();
  });

  test('no workspace: an error on stderr, exit 1, nothing on stdout', () => {
    const root = fixture({});
    const res = run(BINARY, root, ['mcp', '-w', join(root, 'missing')]);
    expect(res.code).toBe(1);
    expect(res.out).toBe('');
    expect(res.err).toStartWith('error: ');
  });

  test('kb mcp takes no arguments; --help does not start a server', () => {
    const root = fixture(RFD_FILES, RFD_CONFIG);
    const extra = run(BINARY, root, ['mcp', 'extra']);
    expect(extra.code).toBe(2);
    expect(extra.err).toStartWith('error: kb mcp takes no arguments (extra)\n');
    const help = run(BINARY, root, ['mcp', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('Serve the knowledge base to MCP clients on stdio');
  });
});

describe('kb mcp resources say what each subject is (dist/kb)', () => {
  test('description, else frontmatter title, else name; one bounded line, escaped; the generic line only when a subject says nothing', async () => {
    const long = `${'word '.repeat(100)}end`;
    const root = fixture(
      {
        't/described.md': '---\ndescription: How releases are tagged.\ntitle: Releases\n---\n# Releases\n',
        't/titled.md': '---\ntitle: "Onboarding: the first day"\n---\nText\n',
        't/named.md': '---\nname: deploy\n---\nText\n',
        't/skill/SKILL.md': '---\nname: skill\ndescription: |\n  Two lines\n  of text.\n---\n# Skill\n',
        't/long.md': `---\ndescription: "${long}"\n---\n`,
        't/control.md': '---\ndescription: "bell\\a here"\n---\n',
        't/plain.md': '# Plain\n',
      },
      '[kb.topic.t]\ntitle = "Things"\nsubjects = "t"\n',
    );
    const c = await connect(root);
    try {
      const { resources } = await c.client.listResources();
      const about = Object.fromEntries(resources.map((r) => [r.name, r.description]));
      expect(about['t/described']).toBe('How releases are tagged.');
      expect(about['t/titled']).toBe('Onboarding: the first day');
      expect(about['t/named']).toBe('deploy');
      expect(about['t/skill']).toBe('Two lines of text.');
      expect(about['t/control']).toBe('bell\\u0007 here');
      expect(about['t/long']!.endsWith('…')).toBe(true);
      expect(Array.from(about['t/long']!).length).toBeLessThanOrEqual(320);
      expect(about['t/plain']).toBe('Subject "plain" of topic t (Things)');
    } finally {
      await c.client.close();
    }
  });
});

describe('kb mcp keeps what it probed while the topic is watched', () => {
  /** A topic of 40 described notes in four folders older than two seconds
   *  (so that the index itself is kept too), and a server on it. */
  async function watchedNotes(extraEnv: Record<string, string> = {}) {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) files[`.jp/kb/notes/d${i % 4}/n${i}.md`] = `---\ndescription: first ${i}\n---\nbody\n`;
    const root = fixture(files, '[kb.topic.notes]\ntitle = "Notes"\nsubjects = ".jp/kb/notes"\n');
    const old = new Date(Date.now() - 60_000);
    for (const d of ['', 'd0', 'd1', 'd2', 'd3']) utimesSync(join(root, '.jp/kb/notes', d), old, old);
    const c = await connect(root, BINARY, ['--verbose'], extraEnv);
    const list = async () => text(await c.client.callTool({ name: 'learn', arguments: { topic: 'notes' } }));
    return { root, c, list };
  }

  /** Edits one note `edits` times, each followed at once by a listing that
   *  must show it. */
  async function editAndList(root: string, list: () => Promise<string>, edits: number) {
    for (let k = 0; k < edits; k++) {
      const i = (k * 7) % 40;
      writeFileSync(join(root, `.jp/kb/notes/d${i % 4}/n${i}.md`), `---\ndescription: edit ${k}\n---\nbody\n`);
      expect(await list()).toContain(`- d${i % 4}/n${i}: edit ${k}`);
    }
  }

  test('a description edited just before a listing shows in it, every time', async () => {
    const { root, c, list } = await watchedNotes();
    try {
      expect(await list()).toContain('- d0/n0: first 0');
      await editAndList(root, list, 12);
      // Listings after the first walked nothing (and probed only what changed).
      expect(c.stderr()).toContain('topic indexes kept between requests: 12 reused, 1 walked');
    } finally {
      await c.client.close();
    }
  });

  /** Edits one note `edits` times, a word of its own in each, each
   *  followed at once by a search that must find it. */
  async function editAndSearch(root: string, c: Connection, edits: number) {
    for (let k = 0; k < edits; k++) {
      const i = (k * 7) % 40;
      writeFileSync(join(root, `.jp/kb/notes/d${i % 4}/n${i}.md`), `---\ndescription: first ${i}\n---\nbody with marker${k}\n`);
      const found = text(await c.client.callTool({ name: 'search', arguments: { query: `marker${k}` } }));
      expect(found).toStartWith(`1 subject matches "marker${k}"`);
      expect(found).toContain(`notes: d${i % 4}/n${i}`);
    }
  }

  test('a search keeps its index while nothing changes, and finds what was written just before it, every time', async () => {
    const { root, c } = await watchedNotes();
    try {
      const search = async (query: string) => text(await c.client.callTool({ name: 'search', arguments: { query } }));
      const first = await search('body');
      for (let k = 0; k < 5; k++) expect(await search('body')).toBe(first);
      expect(c.stderr()).toContain('search indexes: 5 reused, 1 read');
      await editAndSearch(root, c, 8);
      // Kept again once the topic has been quiet for two seconds; then a
      // file made in a new folder.
      await new Promise((r) => setTimeout(r, 2100));
      expect(await search('body')).toContain('40 subjects match');
      expect(await search('body')).toContain('40 subjects match');
      expect(c.stderr()).toContain('search indexes: 6 reused');
      mkdirSync(join(root, '.jp/kb/notes/new'));
      writeFileSync(join(root, '.jp/kb/notes/new/fresh.md'), 'a brand new zanzibar\n');
      expect(await search('zanzibar')).toContain('notes: new/fresh');
    } finally {
      await c.client.close();
    }
  });

  test('however late the watcher hands its events on: a search waits for every event queued before it', async () => {
    const { root, c } = await watchedNotes({ KB_TEST_EVENT_DELAY_MS: '40' });
    try {
      // The first search keeps its index: each edit's event comes 40 ms
      // after the search that follows it has started.
      text(await c.client.callTool({ name: 'search', arguments: { query: 'body' } }));
      await editAndSearch(root, c, 6);
      expect(c.stderr()).not.toContain('file events are late');
    } finally {
      await c.client.close();
    }
  });

  test('however late the watcher hands its events on: the listing waits for every event queued before it', async () => {
    // Every event is handed on 40 ms late (a test hook standing for a
    // watcher thread that lags on a loaded machine): a fixed wait of a
    // few ms would list the old description.
    const { root, c, list } = await watchedNotes({ KB_TEST_EVENT_DELAY_MS: '40' });
    try {
      expect(await list()).toContain('- d0/n0: first 0');
      await editAndList(root, list, 6);
      expect(c.stderr()).not.toContain('file events are late');
    } finally {
      await c.client.close();
    }
  });
});

describe('kb mcp searches text written without spaces as the command line does', () => {
  test('tools/call search: a word inside Chinese and Japanese text, the same text as kb search', async () => {
    const root = fixture(
      {
        'notes/auth.md': '# 认证\n\n本系统使用令牌进行用户认证。\n',
        'notes/config.md': '設定ファイルで接続文字列を指定します。\n',
        'notes/english.md': 'Nothing but English here.\n',
      },
      '[kb.topic.notes]\nsubjects = "notes"\n',
    );
    const c = await connect(root);
    try {
      for (const query of ['认证', '接続文字列', '认识']) {
        const r = await c.client.callTool({ name: 'search', arguments: { query } });
        expect(text(r)).toBe(run(BINARY, root, ['search', '--args', JSON.stringify({ query })]).out);
      }
      const found = await c.client.callTool({ name: 'search', arguments: { query: '认证' } });
      expect(text(found)).toContain('1. notes: auth (~');
    } finally {
      await c.client.close();
    }
  });
});
