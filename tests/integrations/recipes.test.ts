// The recipes of docs/guide/assistants.md (examples/recipes/), run as written with a stand-in
// for the LLM: a small script that records what it is given and answers
// from a script of its own.
import { describe, expect, test } from 'bun:test';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RFD_CONFIG, RFD_FILES, fixture } from '../e2e/harness.ts';
import { BIN, REPO, baseEnv, describeWith, kbBinDir, pathWithoutKb, integrationsDoc, sh, tempDir } from './lib.ts';

const RECIPES = join(REPO, 'examples/recipes');
const bin = kbBinDir();
const ws = fixture(RFD_FILES, RFD_CONFIG);

function env(extra: Record<string, string> = {}): Record<string, string> {
  return baseEnv(ws, { PATH: `${bin}:${pathWithoutKb()}`, ...extra });
}

function kb(args: string[], cwd = ws): string {
  const r = sh(BIN, args, { cwd, env: env() });
  expect(r.code).toBe(0);
  return r.out;
}

function script(dir: string, name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, body);
  chmodSync(path, 0o755);
  return path;
}

describe('the docs show the recipes exactly as they are in examples/recipes/', () => {
  const section = integrationsDoc();
  const blocks = [...section.matchAll(/<!-- recipe: (\S+) -->\n```sh\n([\s\S]*?)```/g)];

  test('six recipes, each a verbatim copy of its script', () => {
    expect(blocks.map((m) => m[1])).toEqual([
      'examples/recipes/system-prompt.sh',
      'examples/recipes/tool-bridge.sh',
      'examples/recipes/pre-commit',
      'examples/recipes/recall-pipe.sh',
      'examples/recipes/claude-code-recall.sh',
      'examples/recipes/mcp-memory.sh',
    ]);
    for (const [, path, body] of blocks) expect({ path, body }).toEqual({ path, body: readFileSync(join(REPO, path), 'utf8') });
  });
});

describeWith(['sh'], 'system-prompt.sh: kb prompt as another tool\'s system prompt', () => {
  const record = tempDir();
  const standIns = tempDir();
  // Stands in for `llm`: records its arguments (NUL-separated) and stdin.
  script(standIns, 'llm', `#!/bin/sh
: > "$RECORD/args"
for a in "$@"; do printf '%s\\0' "$a" >> "$RECORD/args"; done
cat > "$RECORD/stdin"
echo "stand-in answer"
`);
  const args = () => readFileSync(join(record, 'args'), 'utf8').split('\0').slice(0, -1);
  const recipe = join(RECIPES, 'system-prompt.sh');

  test('calls `llm --system "$(kb prompt)" QUESTION` by default and prints its answer', () => {
    const r = sh(recipe, ['Who maintains the CLI?'], { cwd: ws, env: env({ PATH: `${standIns}:${env().PATH}`, RECORD: record }) });
    expect(r).toEqual({ out: 'stand-in answer\n', err: '', code: 0 });
    expect(args()).toEqual(['--system', kb(['prompt']).replace(/\n$/, ''), 'Who maintains the CLI?']);
  });

  test('LLM_CMD with options, and KB with -k whose * stays kb\'s (not a file glob)', () => {
    // A directory the shell would expand project/maintainers/* into.
    const cwd = join(ws, 'sub');
    mkdirSync(join(cwd, 'project/maintainers/decoy'), { recursive: true });
    const r = sh(recipe, ['Who?'], {
      cwd,
      env: env({ RECORD: record, LLM_CMD: `${join(standIns, 'llm')} -m some-model`, KB: 'kb -k project/maintainers/*' }),
    });
    expect(r).toEqual({ out: 'stand-in answer\n', err: '', code: 0 });
    const system = kb(['-k', 'project/maintainers/*', 'prompt']).replace(/\n$/, '');
    expect(system).toContain('<subject "maintainers/jean">');
    expect(args()).toEqual(['-m', 'some-model', '--system', system, 'Who?']);
    rmSync(cwd, { recursive: true });
  });

  test('a kb failure stops the recipe before the model is called', () => {
    const r = sh(recipe, ['Who?'], { cwd: tempDir(), env: env({ RECORD: join(record, 'never'), LLM_CMD: join(standIns, 'llm') }) });
    expect(r.code).toBe(1);
    expect(r.err).toContain('no workspace found');
    expect(r.out).toBe('');
  });
});

describeWith(['sh', 'jq'], 'tool-bridge.sh: a model\'s learn calls answered by kb learn --args -', () => {
  const recipe = join(RECIPES, 'tool-bridge.sh');

  /** A stand-in model: saves request N as request-N.json and prints line N
   *  of responses.jsonl. */
  function standIn(responses: object[]): { dir: string; cmd: string; request: (n: number) => any } {
    const dir = tempDir();
    writeFileSync(join(dir, 'responses.jsonl'), responses.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const cmd = script(dir, 'model', `#!/bin/sh
n=$(( $(cat "${dir}/count" 2>/dev/null || echo 0) + 1 ))
echo "$n" > "${dir}/count"
cat > "${dir}/request-$n.json"
sed -n "\${n}p" "${dir}/responses.jsonl"
`);
    return { dir, cmd, request: (n) => JSON.parse(readFileSync(join(dir, `request-${n}.json`), 'utf8')) };
  }

  const call = (id: string, args: object | string) => ({
    id,
    type: 'function',
    function: { name: 'learn', arguments: typeof args === 'string' ? args : JSON.stringify(args) },
  });
  const toolTurn = (...calls: object[]) => ({ choices: [{ message: { role: 'assistant', content: null, tool_calls: calls } }] });
  const textTurn = (content: string) => ({ choices: [{ message: { role: 'assistant', content } }] });

  test('the search tool beside learn: its calls go to kb search --args - and back', () => {
    const search = (args: object | string) => ({ id: 's1', type: 'function', function: { name: 'search', arguments: typeof args === 'string' ? args : JSON.stringify(args) } });
    const model = standIn([toolTurn(search({ query: 'who maintains the CLI' }), { ...search('{"query": 3}'), id: 's2' }), textTurn('Jean.')]);
    const r = sh(recipe, ['Who maintains the CLI?'], { cwd: ws, env: env({ LLM_CMD: model.cmd }) });
    expect(r).toEqual({ out: 'Jean.\n', err: '', code: 0 });
    expect(model.request(1).tools).toEqual([
      { type: 'function', function: JSON.parse(kb(['schema'])) },
      { type: 'function', function: JSON.parse(kb(['schema', '--tool', 'search'])) },
    ]);
    const results = model.request(2).messages.filter((m: any) => m.role === 'tool');
    expect(results[0]).toEqual({ role: 'tool', tool_call_id: 's1', content: kb(['search', '--args', '{"query":"who maintains the CLI"}']) });
    expect(results[0].content).toContain('project: maintainers/jean');
    expect(results[1].content).toStartWith('Invalid arguments for `search`: "query" must be a string, not number.');
  });

  test('system = kb prompt, tool = kb schema; each call goes to kb learn --args - and back; the answer is printed', () => {
    const model = standIn([
      toolTurn(call('c1', { topic: 'skills' })),
      toolTurn(call('c2', { topic: 'skills', subjects: ['ast-grep'] }), call('c3', { topic: 'nope' })),
      textTurn('Use ast-grep; see ast-grep/rules.'),
    ]);
    const r = sh(recipe, ['Which', 'skills?'], { cwd: ws, env: env({ LLM_CMD: model.cmd, LLM_MODEL: 'stand-in-1' }) });
    expect(r).toEqual({ out: 'Use ast-grep; see ast-grep/rules.\n', err: '', code: 0 });

    const first = model.request(1);
    expect(first.model).toBe('stand-in-1');
    expect(first.messages).toEqual([
      { role: 'system', content: kb(['prompt']) },
      { role: 'user', content: 'Which skills?' },
    ]);
    expect(first.tools).toEqual([
      { type: 'function', function: JSON.parse(kb(['schema'])) },
      { type: 'function', function: JSON.parse(kb(['schema', '--tool', 'search'])) },
    ]);

    const learn = (json: string) => sh(BIN, ['learn', '--args', json], { cwd: ws, env: env() }).out;
    const third = model.request(3);
    expect(third.messages.slice(2)).toEqual([
      toolTurn(call('c1', { topic: 'skills' })).choices[0].message,
      { role: 'tool', tool_call_id: 'c1', content: learn('{"topic":"skills"}') },
      toolTurn(call('c2', { topic: 'skills', subjects: ['ast-grep'] }), call('c3', { topic: 'nope' })).choices[0].message,
      { role: 'tool', tool_call_id: 'c2', content: learn('{"topic":"skills","subjects":["ast-grep"]}') },
      // a tool error (exit 1) is text for the model, and the loop goes on
      { role: 'tool', tool_call_id: 'c3', content: learn('{"topic":"nope"}') },
    ]);
    expect(third.messages[5].content).toBe(RFD_FILES['.jp/kb/skills/ast-grep.md']);
    expect(third.messages[6].content).toContain('nope');
  });

  test('arguments exactly as the model sent them, even malformed, and as an object from some servers', () => {
    const model = standIn([
      toolTurn(call('a', '{"topic": "project", "subjects": "maintainers/*"}'), call('b', '{"topic": "project"'), {
        id: 'c',
        type: 'function',
        function: { name: 'learn', arguments: { topic: 'skills', subjects: 'ast-grep' } },
      }),
      textTurn('done'),
    ]);
    const r = sh(recipe, ['q'], { cwd: ws, env: env({ LLM_CMD: model.cmd }) });
    expect(r).toEqual({ out: 'done\n', err: '', code: 0 });
    const results = model.request(2).messages.filter((m: any) => m.role === 'tool').map((m: any) => m.content);
    expect(results[0]).toBe(sh(BIN, ['learn', 'project', 'maintainers/*'], { cwd: ws, env: env() }).out);
    expect(results[1]).toBe(sh(BIN, ['learn', '--args', '{"topic": "project"'], { cwd: ws, env: env() }).out);
    expect(results[2]).toBe(RFD_FILES['.jp/kb/skills/ast-grep.md']);
    expect(model.request(1)).not.toHaveProperty('model');
  });

  test('an unknown tool is answered with an error; MAX_TURNS bounds the loop', () => {
    const other = { id: 'x', type: 'function', function: { name: 'forget', arguments: '{}' } };
    const model = standIn([toolTurn(other), toolTurn(other), toolTurn(other)]);
    const r = sh(recipe, ['q'], { cwd: ws, env: env({ LLM_CMD: model.cmd, MAX_TURNS: '2' }) });
    expect(r.code).toBe(1);
    expect(r.err).toBe('tool-bridge: no answer after 2 model calls\n');
    expect(model.request(2).messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'x', content: 'unknown tool: forget\n' });
  });

  test('without LLM_CMD, or with a response that is not a chat completion: a clear error', () => {
    const none = sh(recipe, ['q'], { cwd: ws, env: env() });
    expect(none.code).not.toBe(0);
    expect(none.err).toContain('set LLM_CMD');
    const model = standIn([{ error: { message: 'rate limited' } }]);
    const bad = sh(recipe, ['q'], { cwd: ws, env: env({ LLM_CMD: model.cmd }) });
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('tool-bridge: unexpected response from LLM_CMD:');
    expect(bad.err).toContain('rate limited');
  });

  test('a workspace with nothing to learn: no tools in the request', () => {
    const empty = fixture({}, '');
    const model = standIn([textTurn('nothing to learn')]);
    const r = sh(recipe, ['q'], { cwd: empty, env: env({ LLM_CMD: model.cmd }) });
    expect(r).toEqual({ out: 'nothing to learn\n', err: '', code: 0 });
    expect(model.request(1)).toEqual({ messages: [{ role: 'user', content: 'q' }] });
  });
});

describeWith(['sh'], 'recall-pipe.sh: kb recall "$q" | llm "$q"', () => {
  const record = tempDir();
  const standIns = tempDir();
  script(standIns, 'llm', `#!/bin/sh
: > "$RECORD/args"
for a in "$@"; do printf '%s\\0' "$a" >> "$RECORD/args"; done
cat > "$RECORD/stdin"
echo "stand-in answer"
`);
  const recipe = join(RECIPES, 'recall-pipe.sh');
  const withLlm = (extra: Record<string, string> = {}) => env({ PATH: `${standIns}:${env().PATH}`, RECORD: record, ...extra });

  test('the recalled knowledge on stdin, the question as arguments; the answer printed', () => {
    const r = sh(recipe, ['Who maintains the CLI?'], { cwd: ws, env: withLlm() });
    expect(r).toEqual({ out: 'stand-in answer\n', err: '', code: 0 });
    expect(readFileSync(join(record, 'args'), 'utf8').split('\0').slice(0, -1)).toEqual(['Who maintains the CLI?']);
    const stdin = readFileSync(join(record, 'stdin'), 'utf8');
    expect(stdin).toBe(kb(['recall', '--max-tokens', '4000', 'Who maintains the CLI?']).replace(/\n$/, ''));
    expect(stdin).toContain('<subject "maintainers/jean">\nJean maintains the CLI.\n</subject>');
  });

  test('KB_RECALL_TOKENS bounds it; nothing relevant gives the question alone; a kb failure stops before the model', () => {
    sh(recipe, ['Who maintains the CLI?'], { cwd: ws, env: withLlm({ KB_RECALL_TOKENS: '30' }) });
    expect(readFileSync(join(record, 'stdin'), 'utf8')).toBe(kb(['recall', '--max-tokens', '30', 'Who maintains the CLI?']).replace(/\n$/, ''));
    expect(sh(recipe, ['xylophone'], { cwd: ws, env: withLlm() }).code).toBe(0);
    expect(readFileSync(join(record, 'stdin'), 'utf8')).toBe('');
    const failed = sh(recipe, ['q'], { cwd: tempDir(), env: withLlm({ RECORD: join(record, 'never') }) });
    expect(failed.code).toBe(1);
    expect(failed.err).toContain('no workspace found');
  });
});

describeWith(['sh', 'jq'], 'claude-code-recall.sh: a UserPromptSubmit hook', () => {
  const recipe = join(RECIPES, 'claude-code-recall.sh');
  const hookInput = (prompt: string, cwd: string) =>
    JSON.stringify({ session_id: 's', transcript_path: '/dev/null', cwd, hook_event_name: 'UserPromptSubmit', prompt });

  test('the prompt from the JSON on stdin; the recalled knowledge as additionalContext on stdout', () => {
    // Run from elsewhere: the hook goes to the input's cwd.
    const r = sh(recipe, [], { cwd: tempDir(), env: env(), input: hookInput('Who maintains the CLI?', ws) });
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    const out = JSON.parse(r.out);
    expect(Object.keys(out)).toEqual(['hookSpecificOutput']);
    expect(out.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
    expect(out.hookSpecificOutput.additionalContext).toBe(kb(['recall', '--max-tokens', '2000', 'Who maintains the CLI?']).replace(/\n$/, ''));
    expect(out.hookSpecificOutput.additionalContext).toContain('Jean maintains the CLI.');
  });

  test('nothing relevant, or no prompt: nothing printed, exit 0', () => {
    expect(sh(recipe, [], { cwd: ws, env: env(), input: hookInput('xylophone', ws) })).toEqual({ out: '', err: '', code: 0 });
    expect(sh(recipe, [], { cwd: ws, env: env(), input: '{}' })).toEqual({ out: '', err: '', code: 0 });
  });

  test('a kb failure exits 1 (Claude Code shows it and goes on), never 2 (which would block the prompt)', () => {
    const r = sh(recipe, [], { cwd: ws, env: env(), input: hookInput('q', tempDir()) });
    expect(r.code).toBe(1);
    expect(r.err).toContain('no workspace found');
    expect(r.err).toContain('claude-code-recall: kb recall failed');
    expect(r.out).toBe('');
  });
});

describeWith(['git', 'sh'], 'pre-commit: kb check as a plain Git hook', () => {
  function repo(): { root: string; git: (...args: string[]) => ReturnType<typeof sh> } {
    const root = fixture(RFD_FILES, RFD_CONFIG);
    const git = (...args: string[]) => sh('git', args, { cwd: root, env: env() });
    expect(git('init', '-q').code).toBe(0);
    copyFileSync(join(RECIPES, 'pre-commit'), join(root, '.git/hooks/pre-commit'));
    chmodSync(join(root, '.git/hooks/pre-commit'), 0o755);
    return { root, git };
  }

  test('a good knowledge base commits; kb check\'s summary is shown', () => {
    const { git } = repo();
    git('add', '-A');
    const r = git('commit', '-q', '-m', 'kb');
    expect(r.code).toBe(0);
    expect(r.out + r.err).toContain('ok: 2 topics, 6 subjects, no problems');
    expect(git('rev-list', '--count', 'HEAD').out).toBe('1\n');
  });

  test('a misspelled key refuses the commit with kb check\'s message', () => {
    const { root, git } = repo();
    writeFileSync(join(root, '.jp/config.toml'), RFD_CONFIG.replace('introduction =', 'introducton ='));
    git('add', '-A');
    const r = git('commit', '-q', '-m', 'kb');
    expect(r.code).toBe(1);
    const check = sh(BIN, ['check'], { cwd: root, env: env() }).out;
    expect(check).toContain('unknown key `introducton` in topic `project`; did you mean `introduction`?');
    expect(r.out + r.err).toContain(check.trim());
    expect(r.err).toContain('pre-commit: kb check found errors; commit refused');
    expect(git('rev-list', '--all').out).toBe('');
  });

  test('a missing subjects directory refuses the commit; --no-verify skips the hook', () => {
    const { root, git } = repo();
    writeFileSync(join(root, '.jp/config.toml'), RFD_CONFIG.replace('subjects = ".jp/kb/skills"', 'subjects = ".jp/kb/skill"'));
    git('add', '-A');
    const r = git('commit', '-q', '-m', 'kb');
    expect(r.code).toBe(1);
    expect(r.out + r.err).toContain('topic "skills": subjects directory ".jp/kb/skill" does not exist (.jp/config.toml:');
    expect(git('commit', '-q', '--no-verify', '-m', 'kb').code).toBe(0);
  });

  test('KB_WORKSPACE: a workspace below the top of the repository', () => {
    const { root, git } = repo();
    mkdirSync(join(root, 'kbws/.jp'), { recursive: true });
    writeFileSync(join(root, 'kbws/.jp/config.toml'), '[kb.topic.a]\nsubjects = "missing"\n');
    git('add', '-A');
    expect(git('commit', '-q', '-m', 'top only').code).toBe(0);
    writeFileSync(join(root, '.git/hooks/pre-commit'), readFileSync(join(RECIPES, 'pre-commit'), 'utf8').replace('set -eu\n', 'set -eu\nKB_WORKSPACE=kbws\n'));
    writeFileSync(join(root, 'kbws/note.txt'), 'x\n');
    git('add', '-A');
    const r = git('commit', '-q', '-m', 'sub');
    expect(r.code).toBe(1);
    expect(r.out + r.err).toContain('subjects directory "missing" does not exist');
  });
});

describeWith(['sh', 'jq'], 'mcp-memory.sh: one MCP session remembers, another recalls', () => {
  const recipe = join(RECIPES, 'mcp-memory.sh');
  // The script stands in for the MCP client and its model: one session
  // each, exactly the messages a client sends.
  test('a fact remembered on a --write server is found by a read-only server; a near duplicate is refused', () => {
    const root = fixture({ 'notes/.keep': '' }, '[kb.topic.notes]\nsubjects = "notes"\n');
    const run = (...args: string[]) => sh('sh', [recipe, ...args], { cwd: root, env: env() });
    const before = run('recall', 'When is the staging database reset?');
    expect(before.out).not.toContain('staging-database');
    const saved = run('remember', 'notes', 'The staging database is reset every night at 02:00.');
    expect(saved).toMatchObject({ code: 0, err: '' });
    expect(saved.out).toBe('Remembered as subject "staging-database-reset-every-night-02" of topic "notes" (notes/staging-database-reset-every-night-02.md). Load it with learn, topic "notes", subjects "staging-database-reset-every-night-02".\n');
    expect(readFileSync(join(root, 'notes/staging-database-reset-every-night-02.md'), 'utf8')).toContain('source: model');
    const recalled = run('recall', 'When is the staging database reset?');
    expect(recalled.code).toBe(0);
    expect(recalled.out).toContain('1. notes: staging-database-reset-every-night-02');
    expect(recalled.out).toContain('The staging database is reset every night at 02:00.');
    const again = run('remember', 'notes', 'Every night at 02:00 the staging database is reset.');
    expect(again.code).toBe(1);
    expect(again.out).toContain('Not written');
    expect(run('remember', 'nope', 'x').code).toBe(1);
  });
});
