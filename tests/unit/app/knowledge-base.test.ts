// The application layer in process: every operation of `KnowledgeBase`,
// reached through `KnowledgeBase.open` only, on fixture workspaces built in
// temp directories. The texts are the ones the e2e tests (tests/e2e/cli.cases.ts,
// tests/e2e/mcp.test.ts) expect of `kb prompt`, `kb learn`, `kb check`,
// `kb list` and `kb mcp`: the CLI and the MCP server are thin adapters over
// this service, so the two must agree.
//
// Every workspace is opened with an empty environment and a temp home, so
// no configuration of the machine running the tests is ever read.
import { describe, expect, test } from 'bun:test';
import { join, relative } from 'node:path';
import { KnowledgeBase, type OpenOptions, type WorkspaceOptions } from '../../../src/app/knowledge-base.ts';
import type { LearnArgs } from '../../../src/app/args.ts';
import { learn, type LearnSink } from '../../../src/app/learn.ts';
import { learnText } from '../../../src/render/learn.ts';
import { call } from '../../support/tool-call.ts';
import { check } from '../../../src/app/check.ts';
import { list } from '../../../src/app/list.ts';
import { prompt as promptSection } from '../../../src/app/prompt.ts';
import { renderPrompt } from '../../../src/render/prompt.ts';
import { describeSubjects, read, subjects } from '../../../src/app/resources.ts';
import { resourceText } from '../../../src/render/subject.ts';
import { COSTS } from '../../../src/render/costs.ts';
import { PROBED, probeKinds, type Probe } from '../../../src/kb/fs/probe.ts';
import { probeFile, probeHere } from '../../../src/kb/fs/probe-titles.ts';
import { estimateTokens } from '../../../src/kb/content/tokens.ts';
import { renderList } from '../../../src/render/list.ts';
import type { Problem } from '../../../src/shared/problem.ts';
import { makeTempDir, tempWorkspace } from '../../support/temp.ts';
import { LEARN_PARAMETERS, schemaDefinition, servedTools, toolDefinition, toolNamed } from '../../../src/app/tools.ts';

/** `kb schema`'s learn and search tools (undefined: nothing to learn), and
 *  the tools `kb mcp` lists without --write. */
const learnToolOf = (kb: KnowledgeBase) => schemaDefinition(kb, toolNamed('learn')!);
const searchToolOf = (kb: KnowledgeBase) => schemaDefinition(kb, toolNamed('search')!);
const toolsOf = (kb: KnowledgeBase) => servedTools(new Set()).map((t) => toolDefinition(kb, t));
import { AVAILABLE, NOTE, PRELOADED, RFD_CONFIG, RFD_FILES } from '../../support/rfd.ts';

// ---------------------------------------------------------------------------
// Fixtures

const HOME = makeTempDir('kb-app-home-');

/** A workspace: `.jp/config.toml` (when given) plus files. */
function workspace(files: Record<string, string | Uint8Array>, config?: string): string {
  return tempWorkspace('kb-app-', files, config);
}

function open(root: string, more: Partial<WorkspaceOptions> = {}, opts: Omit<OpenOptions, 'costs'> = {}): Promise<KnowledgeBase> {
  return KnowledgeBase.open({ cwd: root, cfg: [], knowledge: [], env: {}, home: HOME, ...more }, { ...opts, costs: COSTS });
}

/** The MCP e2e workspace: the RFD's, plus a disabled subject, a disabled
 *  topic, a binary file and a TOML subject; here also a `.txt` and an
 *  extension-less subject. */
const MCP_CONFIG = `${RFD_CONFIG.replace('subjects = ".jp/kb/project"\n', 'subjects = ".jp/kb/project"\ndisabled = ["maintainers/ryan"]\n')}
[kb.topic.archive]
enable = false
subjects = ".jp/kb/archive"
`;

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]);

const MCP_FILES: Record<string, string | Uint8Array> = {
  ...RFD_FILES,
  '.jp/kb/archive/old.md': 'old\n',
  '.jp/kb/skills/logo.png': PNG,
  '.jp/kb/skills/cargo.toml': '[package]\nname = "example"\n',
  '.jp/kb/skills/notes.txt': 'plain notes\n',
  '.jp/kb/skills/README': 'read me\n',
};

const NO_MATCH = (pattern: string, topic: string) => `No subjects match "${pattern}" in topic "${topic}". Call \`learn\` with only the topic to list its subjects.`;

const EXPECTED_ARGS = 'Expected {"topic": string, "subjects"?: string | string[] | null}.\n';

// ---------------------------------------------------------------------------
// Learn sinks

interface Run {
  text: string;
  /** The output's bytes, exactly as written. */
  bytes: Uint8Array;
  isError: boolean;
  problems: Problem[];
  /** How many chunks were Uint8Array (subject bodies as read). */
  byteChunks: number;
  /** What happened, in order: `write` or `problem:<code>`. */
  events: string[];
}

const encoder = new TextEncoder();

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Runs `learn` into a sink that wants `as`. Bytes chunks are copied at
 *  once: they may be views into a buffer the next read reuses. */
async function learnInto(kb: KnowledgeBase, args: LearnArgs, as: 'text' | 'bytes'): Promise<Run> {
  const parts: Uint8Array[] = [];
  const problems: Problem[] = [];
  const events: string[] = [];
  let byteChunks = 0;
  const text = learnText((chunk) => {
    events.push('write');
    if (typeof chunk === 'string') {
      parts.push(encoder.encode(chunk));
    } else {
      expect(chunk).toBeInstanceOf(Uint8Array);
      byteChunks++;
      parts.push(chunk.slice());
    }
  });
  const sink: LearnSink = {
    as,
    event(e) {
      if (e.kind !== 'problem') return text(e);
      events.push(`problem:${e.problem.code}`);
      problems.push(e.problem);
    },
  };
  const isError = await learn(kb, args, sink);
  const bytes = concat(parts);
  return { text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes), bytes, isError, problems, byteChunks, events };
}

/** Runs `learn` with a text sink and with a bytes sink, checks that both
 *  wrote the same bytes (and the same problems and verdict), and that only
 *  the bytes sink received Uint8Array chunks. Returns the bytes run. */
async function learnBoth(kb: KnowledgeBase, args: LearnArgs): Promise<Run> {
  const asText = await learnInto(kb, args, 'text');
  const asBytes = await learnInto(kb, args, 'bytes');
  expect(asText.byteChunks).toBe(0);
  expect(asBytes.bytes).toEqual(asText.bytes);
  expect(asBytes.text).toBe(asText.text);
  expect(asBytes.isError).toBe(asText.isError);
  expect(asBytes.problems).toEqual(asText.problems);
  return asBytes;
}

/** The prompt section as `kb prompt` prints it, and its problems. */
async function prompt(kb: KnowledgeBase): Promise<{ text: string; problems: Problem[]; stopped?: boolean }> {
  const { prompt: section, problems, stopped } = await promptSection(kb);
  return { text: renderPrompt(section), problems, ...(stopped ? { stopped } : {}) };
}

const args = (topic: string, subjects: string[] | null = null): LearnArgs => ({ topic, subjects });

// ---------------------------------------------------------------------------

describe('prompt()', () => {
  test('the RFD <knowledge> section: available topics only', async () => {
    const kb = await open(workspace(RFD_FILES, RFD_CONFIG));
    expect(await prompt(kb)).toEqual({ text: `<knowledge>\n${AVAILABLE}`, problems: [] });
  });

  test('a learned subject in the configuration is pre-loaded; its topic stays listed', async () => {
    const config = RFD_CONFIG.replace('subjects = ".jp/kb/project"\n', 'subjects = ".jp/kb/project"\nlearned = ["maintainers/*"]\n');
    const kb = await open(workspace(RFD_FILES, config));
    expect(await prompt(kb)).toEqual({ text: PRELOADED, problems: [] });
  });

  test('knowledge values (-k) pre-load the same way', async () => {
    const root = workspace(RFD_FILES, RFD_CONFIG);
    expect((await prompt(await open(root, { knowledge: ['project/maintainers/*'] }))).text).toBe(PRELOADED);
    expect((await prompt(await open(root, { knowledge: ['project/maintainers/jean', 'project/maintainers/ryan'] }))).text).toBe(PRELOADED);
    expect((await prompt(await open(root, { cfg: ['kb.topic.project.learned+=maintainers/*'] }))).text).toBe(PRELOADED);
  });

  test('a topic whose every visible subject is pre-loaded is left out of the list', async () => {
    const kb = await open(workspace(RFD_FILES, RFD_CONFIG), { knowledge: ['skills/*'] });
    const { text } = await prompt(kb);
    expect(text).toContain('<topic "Learnable Assistant Skills">\n\n<subject "ast-grep">\nUse ast-grep.');
    expect(text).not.toContain('- skills');
    expect(text).toContain('\n- project (**General Project Knowledge**): foo bar baz...\n\nUse the');
  });

  test("'' when there is nothing to show", async () => {
    const hiddenOnly = await open(workspace({ '.jp/kb/t/.only-hidden.md': 'x' }, '[kb.topic.t]\nsubjects = ".jp/kb/t"\n'));
    expect(await prompt(hiddenOnly)).toEqual({ text: '', problems: [] });
    const noTopics = await open(workspace({}, ''));
    expect(await prompt(noTopics)).toEqual({ text: '', problems: [] });
    const noConfig = await open(workspace({}));
    expect(await prompt(noConfig)).toEqual({ text: '', problems: [] });
    const disabledTopic = await open(workspace({ 't/a.md': 'a' }, '[kb.topic.t]\nsubjects = "t"\nenable = false\n'));
    expect(await prompt(disabledTopic)).toEqual({ text: '', problems: [] });
  });

  test('topic lines drop absent parts; disabled topics are not shown', async () => {
    const kb = await open(
      workspace(
        { 'a/x.md': 'x', 'b/y.md': 'y', 'c/z.md': 'z' },
        '[kb.topic.a]\nsubjects = "a"\nintroduction = "intro only"\n[kb.topic.b]\nsubjects = "b"\n[kb.topic.c]\nsubjects = "c"\nenable = false\n',
      ),
    );
    expect((await prompt(kb)).text).toBe(
      `<knowledge>\nThe following knowledge topics are available to learn:\n\n- a: intro only\n- b\n\nUse the \`learn\` tool to consume this knowledge.\n\n${NOTE}\n</knowledge>\n`,
    );
  });

  test('problems: a learned pattern matching nothing, a missing subjects directory', async () => {
    const root = workspace({ 't/a.md': 'A\n' }, '[kb.topic.t]\nsubjects = "t"\nlearned = ["nothing/*", "a"]\n\n[kb.topic.gone]\nsubjects = "does/not/exist"\n');
    const kb = await open(root);
    const { text, problems } = await prompt(kb);
    expect(problems).toEqual([
      { severity: 'warning', code: 'learned-no-match', message: 'topic "t": learned pattern "nothing/*" matches no subject' },
      { severity: 'warning', code: 'missing-directory', message: `topic "gone": subjects directory not found: ${join(kb.config.root, 'does/not/exist')}` },
    ]);
    // The rest still works: `a` is pre-loaded, nothing is left to list.
    expect(text).toBe('<knowledge>\nThe following knowledge has been pre-loaded into your system prompt:\n\n<topic "t">\n\n<subject "a">\nA\n</subject>\n</topic>\n</knowledge>\n');
  });

  test('a learned binary named exactly is skipped with a warning', async () => {
    const kb = await open(workspace({ 't/logo.png': PNG, 't/a.md': 'A\n' }, '[kb.topic.t]\nsubjects = "t"\nlearned = ["logo"]\n'));
    const { text, problems } = await prompt(kb);
    expect(problems).toEqual([{ severity: 'warning', code: 'binary-subject', message: 'learned subject "logo" of topic "t" is a binary file; skipped' }]);
    expect(text).toStartWith('<knowledge>\nThe following knowledge topics are available to learn:\n\n- t\n');
  });
});

describe('the learn and search tools for a knowledge base (app/tools.ts)', () => {
  const ALL = 'Learn about knowledge base topics and subjects.\n\nAvailable topics:\n- project (General Project Knowledge)\n- skills (Learnable Assistant Skills)';
  const NONE = 'Learn about knowledge base topics and subjects.\n\nNo topic has subjects to learn at the moment.';

  test('names the learnable topics, with the RFD parameters', async () => {
    const kb = await open(workspace(RFD_FILES, RFD_CONFIG));
    const tool = learnToolOf(kb);
    expect(tool?.name).toBe('learn');
    expect(tool?.description).toBe(ALL);
    // The RFD's schema, literally: tests/e2e/cli.cases.ts spells it out.
    expect(tool?.parameters).toBe(LEARN_PARAMETERS);
    expect(toolsOf(kb).map((t) => t.name)).toEqual(['learn', 'search']);
    expect(toolsOf(kb)[0]).toEqual(tool!);
    expect(toolsOf(kb)[1]).toEqual(searchToolOf(kb)!);
    expect(kb.learnableTopics().map((t) => t.id)).toEqual(['project', 'skills']);
  });

  test('only learnable topics are named: not a fully pre-loaded one, not a disabled one, not a binary-only one', async () => {
    const root = workspace(
      { ...MCP_FILES, 'bin/a.png': PNG },
      `${MCP_CONFIG}\n[kb.topic.bin]\nsubjects = "bin"\n`,
    );
    const kb = await open(root, { knowledge: ['skills/*', 'skills/ast-grep/rules'] });
    expect(learnToolOf(kb)?.description).toBe('Learn about knowledge base topics and subjects.\n\nAvailable topics:\n- project (General Project Knowledge)');
    expect(toolsOf(kb)[0].description).toBe('Learn about knowledge base topics and subjects.\n\nAvailable topics:\n- project (General Project Knowledge)');
    expect(toolsOf(kb)[1].description).toEndWith('\n\nTopics:\n- project (General Project Knowledge)');
  });

  test('opened without titles (kb schema, kb prompt): the same tools and topics, no head searched for a title, and a listing still shows titles', async () => {
    const root = workspace(
      { ...MCP_FILES, 'bin/a.png': PNG, 'docs/guide.md': '# The guide to everything\n\nbody\n', 'docs/page.html': '<html><head><title>A page</title></head><body>x</body></html>\n' },
      `${MCP_CONFIG}\n[kb.topic.bin]\nsubjects = "bin"\n\n[kb.topic.docs]\nsubjects = "docs"\n`,
    );
    const titled = await open(root);
    const kinds = await open(root, {}, { titles: false });
    expect(kinds.learnableTopics().map((t) => t.id)).toEqual(['project', 'skills', 'docs']);
    expect(kinds.learnableTopics().map((t) => t.id)).toEqual(titled.learnableTopics().map((t) => t.id));
    expect(toolsOf(kinds)).toEqual(toolsOf(titled));
    expect(learnToolOf(kinds)).toEqual(learnToolOf(titled));
    const docs = kinds.topics.find((t) => t.id === 'docs')!;
    // The question probed one file, without searching its head.
    expect(kinds.view(docs).probe).toBe(probeKinds);
    expect(titled.view(titled.topics.find((t) => t.id === 'docs')!).probe).toBe(probeHere);
    expect([...kinds.view(docs).probed.values()]).toEqual([{ kind: 'text', titlesSkipped: true }]);
    // Asked for a listing all the same, it probes again with the title rules.
    const listed = await learnBoth(kinds, args('docs'));
    expect(listed.text).toContain('- guide: The guide to everything\n- page: A page\n');
    expect(listed.text).toBe((await learnBoth(titled, args('docs'))).text);
  });

  test('kb schema: opened with views later, the learnable topics settled from the tops of their folders, the same as the views say', async () => {
    const root = workspace(
      { ...MCP_FILES, 'bin/a.png': PNG, 'docs/guide.md': '# The guide\n', 'deep/only/a.md': 'A\n', 'ign/.kbignore': '/a.md\n', 'ign/a.md': 'A\n', 'ign/sub/b.md': 'B\n', 'svg/.kbignore': '*.svg\n', 'svg/a.md': 'A\n', 'none/.kbignore': '*.md\n', 'none/a.md': 'A\n' },
      `${MCP_CONFIG}\n[kb.topic.bin]\nsubjects = "bin"\n\n[kb.topic.docs]\nsubjects = "docs"\n\n[kb.topic.deep]\nsubjects = "deep"\n\n[kb.topic.ign]\nsubjects = "ign"\n\n[kb.topic.svg]\nsubjects = "svg"\n\n[kb.topic.none]\nsubjects = "none"\n`,
    );
    const full = await open(root, {}, { titles: false });
    const later = await open(root, {}, { titles: false, views: 'later' });
    await later.settleLearnable();
    const ids = later.learnableTopics().map((t) => t.id);
    expect(ids).toEqual(['project', 'skills', 'docs', 'deep', 'ign', 'svg']);
    expect(ids).toEqual(full.learnableTopics().map((t) => t.id));
    expect(learnToolOf(later)).toEqual(learnToolOf(full));
    // docs and svg (its ignore rules read) were told from the tops of their
    // folders: no view of them was opened (one opened now has probed
    // nothing); deep (its files one folder down), ign (its top file
    // ignored), none (every file ignored) and bin (binary only) were walked.
    const topic = (id: string) => later.topics.find((t) => t.id === id)!;
    expect([...later.view(topic('docs')).probed.values()]).toEqual([]);
    expect([...later.view(topic('svg')).probed.values()]).toEqual([]);
    expect([...later.view(topic('deep')).probed.values()]).toEqual([{ kind: 'text', titlesSkipped: true }]);
  });

  test('a topic with only hidden subjects left keeps the tool', async () => {
    const kb = await open(workspace(RFD_FILES, RFD_CONFIG), { knowledge: ['skills/*', 'project/**'] });
    expect(learnToolOf(kb)?.description).toBe(ALL);
  });

  test('nothing learnable: learnTool() and searchTool() are undefined; tools() still lists both, saying so', async () => {
    const kb = await open(workspace({ 't/a.md': 'a' }, '[kb.topic.t]\nsubjects = "t"\nlearned = ["a"]\n'));
    expect(learnToolOf(kb)).toBeUndefined();
    const tools = toolsOf(kb);
    expect(tools.map((t) => t.name)).toEqual(['learn', 'search']);
    expect(tools[0].description).toBe(NONE);
    expect(tools[1].description).toEndWith('No topic has subjects at the moment.');
    expect(searchToolOf(kb)).toBeUndefined();
    const empty = await open(workspace({}, ''));
    expect(learnToolOf(empty)).toBeUndefined();
    expect(toolsOf(empty)[0].description).toBe(NONE);
  });
});

describe('learn(args, sink): text and bytes sinks write the same bytes', () => {
  const rfd = workspace(RFD_FILES, RFD_CONFIG);
  const mcp = workspace(MCP_FILES, MCP_CONFIG);

  test('listing without subjects, no description', async () => {
    const r = await learnBoth(await open(rfd), args('skills'));
    expect(r.text).toBe('# Topic: Learnable Assistant Skills\n\n## Available subjects:\n\n- ast-grep\n\nUse the `learn` tool with the `subjects` argument to learn specific subjects.\n');
    expect(r.isError).toBe(false);
    expect(r.problems).toEqual([]);
  });

  test('listing: hidden, disabled, binary left out; pre-loaded in its own part', async () => {
    const kb = await open(mcp, { knowledge: ['project/maintainers/jean'] });
    const project = await learnBoth(kb, args('project'));
    expect(project.text).toBe(`# Topic: General Project Knowledge

longer initial description talking about this

## Available subjects:

- code-quality

Use the \`learn\` tool with the \`subjects\` argument to learn specific subjects.

## Already learned (in system prompt):

- maintainers/jean
`);
    expect(project.isError).toBe(false);
    const skills = await learnBoth(kb, args('learnable assistant SKILLS'));
    expect(skills.text).toBe('# Topic: Learnable Assistant Skills\n\n## Available subjects:\n\n- README\n- ast-grep\n- cargo\n- notes\n\nUse the `learn` tool with the `subjects` argument to learn specific subjects.\n');
  });

  test('listing with everything pre-loaded by a glob: (none); a glob-matched binary is not called pre-loaded', async () => {
    const kb = await open(mcp, { knowledge: ['skills/*'] });
    const r = await learnBoth(kb, args('skills'));
    expect(r.text).toBe(
      '# Topic: Learnable Assistant Skills\n\n## Available subjects:\n\n(none)\n\nUse the `learn` tool with the `subjects` argument to learn specific subjects.\n\n## Already learned (in system prompt):\n\n- README\n- ast-grep\n- cargo\n- notes\n',
    );
    expect(r.isError).toBe(false);
  });

  test('a glob load wraps every non-hidden subject, bodies as bytes', async () => {
    const r = await learnBoth(await open(rfd), args('project', ['**']));
    expect(r.text).toBe(
      '<subject "code-quality">\n# Code quality\nRun the linters.\n</subject>\n\n<subject "maintainers/jean">\nJean maintains the CLI.\n</subject>\n\n<subject "maintainers/ryan">\nRyan maintains the LLM crates.\n</subject>\n',
    );
    expect(r.isError).toBe(false);
    expect(r.byteChunks).toBe(3);
  });

  test('a glob load with a disabled and a pre-loaded subject: a note for the pre-loaded one', async () => {
    const kb = await open(mcp, { knowledge: ['project/maintainers/jean'] });
    const r = await learnBoth(kb, args('project', ['**']));
    expect(r.text).toBe(
      '<subject "code-quality">\n# Code quality\nRun the linters.\n</subject>\n\nSubject "maintainers/jean" is already in your system prompt (pre-loaded); it is not returned again.\n',
    );
    expect(r.isError).toBe(false);
    expect(r.byteChunks).toBe(1);
  });

  test('several patterns keep pattern order and drop duplicates', async () => {
    const r = await learnBoth(await open(rfd), args('project', ['maintainers/ryan', 'maintainers/*', 'code-quality']));
    expect([...r.text.matchAll(/<subject "([^"]+)">/g)].map((m) => m[1])).toEqual(['maintainers/ryan', 'maintainers/jean', 'code-quality']);
    expect(r.byteChunks).toBe(3);
  });

  test('one exact subject: raw content; a hidden one by exact slug', async () => {
    const kb = await open(rfd);
    const exact = await learnBoth(kb, args('skills', ['ast-grep']));
    expect(exact).toMatchObject({ text: RFD_FILES['.jp/kb/skills/ast-grep.md'], isError: false, problems: [], byteChunks: 1 });
    const hidden = await learnBoth(kb, args('skills', ['ast-grep/rules']));
    expect(hidden).toMatchObject({ text: 'RULES-BODY\n', isError: false, byteChunks: 1 });
  });

  test('raw content ends with exactly one newline', async () => {
    const kb = await open(workspace({ 't/none.md': 'no newline', 't/many.md': 'many\n\n\n', 't/crlf.md': 'a\r\nb\r\n' }, '[kb.topic.t]\nsubjects = "t"\n'));
    expect((await learnBoth(kb, args('t', ['none']))).text).toBe('no newline\n');
    expect((await learnBoth(kb, args('t', ['many']))).text).toBe('many\n');
    expect((await learnBoth(kb, args('t', ['crlf']))).text).toBe('a\r\nb\n');
  });

  test('a non-Markdown subject is fenced with its language, raw and wrapped', async () => {
    const kb = await open(mcp);
    const raw = await learnBoth(kb, args('skills', ['cargo']));
    expect(raw).toMatchObject({ text: '```toml\n[package]\nname = "example"\n```\n', isError: false, byteChunks: 1 });
    const wrapped = await learnBoth(kb, args('skills', ['c*']));
    expect(wrapped).toMatchObject({ text: '<subject "cargo">\n```toml\n[package]\nname = "example"\n```\n</subject>\n', isError: false, byteChunks: 1 });
    const formats = await open(workspace({ 't/code.rs': 'fn main() {}\n', 't/ticks.py': 'x = """```"""\n', 't/doc.txt': 'plain\n' }, '[kb.topic.t]\nsubjects = "t"\n'));
    expect((await learnBoth(formats, args('t', ['code']))).text).toBe('```rust\nfn main() {}\n```\n');
    expect((await learnBoth(formats, args('t', ['ticks']))).text).toBe('````python\nx = """```"""\n````\n');
    expect((await learnBoth(formats, args('t', ['doc']))).text).toBe('plain\n');
  });

  test("byte-order marks: the file's own is dropped, one inside the body is content; UTF-16 is decoded", async () => {
    const utf16 = new Uint8Array([0xff, 0xfe, 0x68, 0x00, 0xe9, 0x00, 0x0a, 0x00]); // "hé\n"
    const kb = await open(
      workspace({ 't/bom.md': '\uFEFFhello\n', 't/twice.md': '\uFEFF\uFEFFtwice\n', 't/utf16.txt': utf16 }, '[kb.topic.t]\nsubjects = "t"\n'),
    );
    const bom = await learnBoth(kb, args('t', ['bom']));
    expect(bom.bytes).toEqual(encoder.encode('hello\n'));
    const twice = await learnBoth(kb, args('t', ['twice']));
    expect(twice.bytes).toEqual(encoder.encode('\uFEFFtwice\n'));
    expect(twice.text).toBe('\uFEFFtwice\n');
    const wide = await learnBoth(kb, args('t', ['utf16']));
    expect(wide.text).toBe('hé\n');
    expect(wide.problems).toEqual([]);
  });

  test('an unknown topic: an error listing the enabled topics', async () => {
    const r = await learnBoth(await open(mcp), args('nope'));
    expect(r).toMatchObject({ text: 'Unknown topic "nope". Valid topics: project (General Project Knowledge), skills (Learnable Assistant Skills).\n', isError: true, byteChunks: 0 });
    const disabled = await learnBoth(await open(mcp), args('archive', ['old']));
    expect(disabled).toMatchObject({ text: 'Unknown topic "archive". Valid topics: project (General Project Knowledge), skills (Learnable Assistant Skills).\n', isError: true });
    const none = await learnBoth(await open(workspace({}, '')), args('x'));
    expect(none).toMatchObject({ text: 'Unknown topic "x". Valid topics: (none).\n', isError: true });
  });

  test('no match: a note, an error; with other matches: not an error', async () => {
    const kb = await open(rfd);
    const nothing = await learnBoth(kb, args('skills', ['nope']));
    expect(nothing).toMatchObject({ text: `${NO_MATCH('nope', 'skills')}\n`, isError: true, byteChunks: 0 });
    const globNothing = await learnBoth(kb, args('project', ['zzz*']));
    expect(globNothing).toMatchObject({ text: `${NO_MATCH('zzz*', 'project')}\n`, isError: true });
    const some = await learnBoth(kb, args('skills', ['ast-grep', 'nope']));
    expect(some).toMatchObject({
      text: `<subject "ast-grep">\nUse ast-grep. Read \`ast-grep/rules\` for full rule documentation.\n</subject>\n\n${NO_MATCH('nope', 'skills')}\n`,
      isError: false,
      byteChunks: 1,
    });
  });

  test('disabled subjects match nothing, even exactly; pre-loaded ones are not returned again', async () => {
    const kb = await open(mcp, { knowledge: ['project/maintainers/jean'] });
    expect(await learnBoth(kb, args('project', ['maintainers/ryan']))).toMatchObject({ text: `${NO_MATCH('maintainers/ryan', 'project')}\n`, isError: true });
    expect(await learnBoth(kb, args('project', ['maintainers/jean']))).toMatchObject({
      text: 'Subject "maintainers/jean" is already in your system prompt (pre-loaded); it is not returned again.\n',
      isError: true,
      byteChunks: 0,
    });
  });

  test('binary files: skipped by globs, a one-line notice when named', async () => {
    const kb = await open(mcp);
    expect(await learnBoth(kb, args('skills', ['logo']))).toMatchObject({ text: 'Skipped "logo": it is a binary file.\n', isError: true, byteChunks: 0 });
    expect(await learnBoth(kb, args('skills', ['l*']))).toMatchObject({ text: `${NO_MATCH('l*', 'skills')}\n`, isError: true });
  });

  test('patterns with .. or absolute paths match nothing and read nothing outside', async () => {
    const kb = await open(workspace({ 'secret.md': 'SECRET', 't/a.md': 'a' }, '[kb.topic.t]\nsubjects = "t"\n'));
    for (const p of ['../secret', '/etc/passwd', '../*', 'a/../../secret']) {
      const r = await learnBoth(kb, args('t', [p]));
      expect({ p, isError: r.isError }).toEqual({ p, isError: true });
      expect(r.text).not.toContain('SECRET');
      expect(r.byteChunks).toBe(0);
    }
  });

  test('invalid UTF-8: replaced, and an invalid-utf8 problem reported to the sink before the subject is written', async () => {
    const kb = await open(workspace({ 't/bad.txt': new Uint8Array([0x66, 0xff, 0x66, 0x0a]), 't/good.md': 'good\n' }, '[kb.topic.t]\nsubjects = "t"\n'));
    const problem = {
      severity: 'warning',
      code: 'invalid-utf8',
      message: 'subject "bad" of topic "t" has byte sequences that are invalid in its encoding; they were replaced with U+FFFD',
    };
    const raw = await learnBoth(kb, args('t', ['bad']));
    expect(raw).toMatchObject({ text: 'f\uFFFDf\n', isError: false, problems: [problem], byteChunks: 1 });
    expect(raw.events[0]).toBe('problem:invalid-utf8');
    const both = await learnBoth(kb, args('t', ['*']));
    expect(both).toMatchObject({ text: '<subject "bad">\nf\uFFFDf\n</subject>\n\n<subject "good">\ngood\n</subject>\n', problems: [problem], byteChunks: 2 });
  });

  test("a sink's asynchronous problem() is awaited before the subject is written", async () => {
    const kb = await open(workspace({ 't/bad.md': new Uint8Array([0x66, 0xff, 0x0a]) }, '[kb.topic.t]\nsubjects = "t"\n'));
    const events: string[] = [];
    const text = learnText(() => events.push('write'));
    const isError = await learn(kb, args('t', ['bad']), {
      as: 'bytes',
      event: (e) =>
        e.kind !== 'problem'
          ? text(e)
          : new Promise<void>((resolve) => {
              events.push(`problem:${e.problem.code}`);
              setTimeout(() => {
                events.push('reported');
                resolve();
              }, 10);
            }),
    });
    expect(isError).toBe(false);
    expect(events.slice(0, 3)).toEqual(['problem:invalid-utf8', 'reported', 'write']);
  });
});

describe('call(value): arguments exactly as a model sends them', () => {
  const mcp = workspace(MCP_FILES, MCP_CONFIG);

  test('bad arguments: an isError result for the model, no problems', async () => {
    const kb = await open(mcp);
    const bad: [unknown, string][] = [
      [[1], 'the arguments must be a JSON object, not array'],
      ['skills', 'the arguments must be a JSON object, not string'],
      [null, 'the arguments must be a JSON object, not null'],
      [{ topic: 'skills', subject: 'ast-grep' }, 'unknown argument "subject"'],
      [{ topic: 'skills', a: 1, b: 2 }, 'unknown arguments "a", "b"'],
      [{}, '"topic" is required'],
      [{ subjects: 'x' }, '"topic" is required'],
      [{ topic: 1 }, '"topic" must be a string, not number'],
      [{ topic: '' }, '"topic" must not be empty'],
      [{ topic: 'skills', subjects: 1 }, '"subjects" must be a string, an array of strings or null, not number'],
      [{ topic: 'skills', subjects: ['a', 1] }, '"subjects"[1] must be a string, not number'],
    ];
    for (const [value, problem] of bad) {
      const r = await call(kb, value);
      expect({ value, ...r }).toEqual({ value, text: `Invalid arguments for \`learn\`: ${problem}. ${EXPECTED_ARGS}`, isError: true, problems: [] });
    }
  });

  test('good arguments: the same text and verdict as learn()', async () => {
    const kb = await open(mcp, { knowledge: ['project/maintainers/jean'] });
    const cases: [Record<string, unknown>, LearnArgs][] = [
      [{ topic: 'skills' }, args('skills')],
      [{ topic: 'skills', subjects: null }, args('skills')],
      [{ topic: 'skills', subjects: [] }, args('skills')],
      [{ topic: 'General Project Knowledge' }, args('General Project Knowledge')],
      [{ topic: 'project', subjects: ['**'] }, args('project', ['**'])],
      [{ topic: 'skills', subjects: 'ast-grep' }, args('skills', ['ast-grep'])],
      [{ topic: 'skills', subjects: ['cargo'] }, args('skills', ['cargo'])],
      [{ topic: 'skills', subjects: ['ast-grep/rules'] }, args('skills', ['ast-grep/rules'])],
      [{ topic: 'nope' }, args('nope')],
      [{ topic: 'archive' }, args('archive')],
      [{ topic: 'project', subjects: ['maintainers/ryan'] }, args('project', ['maintainers/ryan'])],
      [{ topic: 'project', subjects: 'zzz*' }, args('project', ['zzz*'])],
      [{ topic: 'skills', subjects: ['logo'] }, args('skills', ['logo'])],
    ];
    for (const [value, learnArgs] of cases) {
      const expected = await learnInto(kb, learnArgs, 'bytes');
      const r = await call(kb, value);
      expect({ value, ...r }).toEqual({ value, text: expected.text, isError: expected.isError, problems: expected.problems });
    }
    expect((await call(kb, { topic: 'skills', subjects: ['ast-grep/rules'] })).text).toBe('RULES-BODY\n');
    expect((await call(kb, { topic: 'skills', subjects: 'cargo' })).text).toBe('```toml\n[package]\nname = "example"\n```\n');
    expect(await call(kb, { topic: 'nope' })).toEqual({
      text: 'Unknown topic "nope". Valid topics: project (General Project Knowledge), skills (Learnable Assistant Skills).\n',
      isError: true,
      problems: [],
    });
  });

  test('problems found while loading come back with the result', async () => {
    const kb = await open(workspace({ 't/bad.md': new Uint8Array([0x66, 0xff, 0x0a]) }, '[kb.topic.t]\nsubjects = "t"\n'));
    expect(await call(kb, { topic: 't', subjects: ['bad'] })).toEqual({
      text: 'f\uFFFD\n',
      isError: false,
      problems: [
        {
          severity: 'warning',
          code: 'invalid-utf8',
          message: 'subject "bad" of topic "t" has byte sequences that are invalid in its encoding; they were replaced with U+FFFD',
        },
      ],
    });
  });
});

describe('check()', () => {
  test('a good workspace: no diagnostics; every topic and subject counted', async () => {
    const kb = await open(workspace(RFD_FILES, RFD_CONFIG));
    expect(kb.fatal()).toBeUndefined();
    expect(await check(kb)).toEqual({
      topics: [
        { id: 'project', enabled: true, subjects: 4, preloaded: 0, preloadedTokens: 0 },
        { id: 'skills', enabled: true, subjects: 2, preloaded: 0, preloadedTokens: 0 },
      ],
      diagnostics: [],
    });
  });

  test('a missing subjects dir, a stale disabled slug and learned pattern, binary and non-UTF-8 subjects', async () => {
    const config = [
      '[kb.topic.gone]', // 1
      'subjects = "does/not/exist"', // 2
      '', // 3
      '[kb.topic.t]', // 4
      'subjects = "t"', // 5
      'learned = ["nothing/*", "a", "logo"]', // 6
      'disabled = ["ghost"]', // 7
      '',
    ].join('\n');
    const root = workspace({ 't/a.md': 'a', 't/logo.png': PNG, 't/c.txt': new Uint8Array([0x66, 0xff, 0x66]) }, config);
    const kb = await open(root);
    expect(kb.fatal()).toBeUndefined();
    expect(kb.problems).toEqual([]);
    expect(await check(kb)).toEqual({
      topics: [
        { id: 'gone', enabled: true, subjects: 0, preloaded: 0, preloadedTokens: 0 },
        { id: 't', enabled: true, subjects: 2, binary: { count: 1, extensions: [{ ext: 'png', count: 1 }], files: [{ slug: 'logo', path: 't/logo.png' }] }, preloaded: 1, preloadedTokens: 1 },
      ],
      diagnostics: [
        { severity: 'error', code: 'subjects-not-found', message: 'topic "gone": subjects directory "does/not/exist" does not exist', where: '.jp/config.toml:2', topic: 'gone' },
        { severity: 'error', code: 'learned-no-match', message: 'topic "t": learned pattern "nothing/*" matches no subject', where: '.jp/config.toml:6', topic: 't' },
        {
          severity: 'error',
          code: 'learned-no-match',
          message: 'topic "t": learned pattern "logo" matches only binary files, which are never loaded',
          where: '.jp/config.toml:6',
          topic: 't',
        },
        { severity: 'error', code: 'disabled-no-match', message: 'topic "t": disabled slug "ghost" matches no subject', where: '.jp/config.toml:7', topic: 't' },
        { severity: 'warning', code: 'invalid-utf8', message: 'topic "t": subject "c" is not valid UTF-8; invalid bytes are replaced when loaded', where: 't/c.txt', topic: 't' },
      ],
    });
  });

  test('a shared slug is one warning, where the file it loads is', async () => {
    const kb = await open(workspace({ 'c/a.md': 'a', 'c/a.txt': 'a' }, '[kb.topic.collide]\nsubjects = "c"\n'));
    expect((await check(kb)).diagnostics).toEqual([
      {
        severity: 'warning',
        code: 'slug-collision',
        message: 'topic "collide": slug "a" is shared by 2 files: it loads a.md; the other loads by its name with its extension, "a.txt"',
        where: 'c/a.md',
        topic: 'collide',
      },
    ]);
  });

  test('a wrong-typed field is fatal, yet the configuration opens and check() reports it', async () => {
    const kb = await open(workspace({ 't/a.md': 'a' }, '[kb.topic.w]\nsubjects = "t"\nenable = "yes"\n'));
    const wrong: Problem = { severity: 'error', code: 'wrong-type', message: '`kb.topic.w.enable` must be a boolean, got string', where: '.jp/config.toml:3', topic: 'w' };
    expect(kb.fatal()).toEqual(wrong);
    expect(kb.problems).toEqual([wrong]);
    expect(kb.topics.map((t) => [t.id, t.enable, t.subjects])).toEqual([['w', true, 't']]);
    expect(await check(kb)).toEqual({ topics: [{ id: 'w', enabled: true, subjects: 1, preloaded: 0, preloadedTokens: 0 }], diagnostics: [wrong] });
  });

  test('a TOML syntax error is fatal; an unknown key is a problem but not fatal', async () => {
    const broken = await open(workspace({}, '[kb.topic.t\nsubjects = "t"\n'));
    expect(broken.fatal()?.code).toBe('toml-syntax');
    expect(broken.fatal()?.where).toMatch(/^\.jp\/config\.toml:1:\d+$/);
    const typo = await open(workspace({ 't/a.md': 'a' }, '[kb.topic.t]\nsubjects = "t"\ntitel = "T"\n'));
    expect(typo.fatal()).toBeUndefined();
    expect(typo.problems).toEqual([
      { severity: 'error', code: 'unknown-key', message: 'unknown key `titel` in topic `t`; did you mean `title`?', where: '.jp/config.toml:3', topic: 't' },
    ]);
  });
});

/** A fixture file's estimated tokens, as kb list reports them. */
const tokensOf = (path: string) => estimateTokens(RFD_FILES[path]);

describe('list()', () => {
  test('every subject with its size and marks: as kb list prints it', async () => {
    const root = workspace(RFD_FILES, RFD_CONFIG);
    const kb = await open(root, { knowledge: ['project/maintainers/jean'] });
    const topics = await list(kb, (dir) => relative(kb.config.root, dir) || '.');
    expect(topics).toEqual([
      {
        id: 'project',
        title: 'General Project Knowledge',
        enabled: true,
        dir: '.jp/kb/project',
        rows: [
          { slug: 'code-quality', size: 32, marks: [], tokens: tokensOf('.jp/kb/project/code-quality.md') },
          { slug: 'internal-notes', size: 22, marks: ['hidden'], tokens: tokensOf('.jp/kb/project/.internal-notes.md') },
          { slug: 'maintainers/jean', size: 24, marks: ['learned'], tokens: tokensOf('.jp/kb/project/maintainers/jean.md') },
          { slug: 'maintainers/ryan', size: 31, marks: [], tokens: tokensOf('.jp/kb/project/maintainers/ryan.md') },
        ],
        problems: [],
      },
      {
        id: 'skills',
        title: 'Learnable Assistant Skills',
        enabled: true,
        dir: '.jp/kb/skills',
        rows: [
          { slug: 'ast-grep', size: 65, marks: [], tokens: tokensOf('.jp/kb/skills/ast-grep.md') },
          { slug: 'ast-grep/rules', size: 11, marks: ['hidden'], tokens: tokensOf('.jp/kb/skills/ast-grep/.rules.md') },
        ],
        problems: [],
      },
    ]);
    // Sizes, estimated tokens and marks in aligned columns; a total per topic.
    const tok = (p: string) => `~${tokensOf(p)} tok`;
    const lines = renderList(topics).split('\n');
    expect(lines[0]).toBe('project (General Project Knowledge): .jp/kb/project');
    expect(lines[1]).toMatch(new RegExp(`^  code-quality {6}32 B +${tok('.jp/kb/project/code-quality.md')}$`));
    expect(lines[2]).toMatch(new RegExp(`^  internal-notes {4}22 B +${tok('.jp/kb/project/.internal-notes.md')}  hidden$`));
    expect(lines[3]).toMatch(new RegExp(`^  maintainers/jean  24 B +${tok('.jp/kb/project/maintainers/jean.md')}  learned$`));
    const total = ['code-quality.md', '.internal-notes.md', 'maintainers/jean.md', 'maintainers/ryan.md'].reduce((n, f) => n + tokensOf(`.jp/kb/project/${f}`), 0);
    expect(lines[5]).toBe(`  (~${total} tokens in all)`);
    expect(lines.at(-2)).toBe('2 topics, 6 subjects');
    expect(new Set(lines.slice(1, 5).map((l) => l.indexOf(' B ')))).toHaveProperty('size', 1);
  });

  test('disabled (even when learned), binary, disabled topics, a missing directory', async () => {
    const kb = await open(workspace(MCP_FILES, `${MCP_CONFIG}\n[kb.topic.gone]\nsubjects = "nowhere"\n`), { knowledge: ['project/maintainers/ryan'] });
    const topics = await list(kb, (dir) => relative(kb.config.root, dir));
    expect(topics.map((t) => ({ id: t.id, enabled: t.enabled, dir: t.dir, problems: t.problems }))).toEqual([
      { id: 'project', enabled: true, dir: '.jp/kb/project', problems: [] },
      { id: 'skills', enabled: true, dir: '.jp/kb/skills', problems: [] },
      { id: 'archive', enabled: false, dir: '.jp/kb/archive', problems: [] },
      { id: 'gone', enabled: true, dir: 'nowhere', problems: [`subjects directory not found: ${join(kb.config.root, 'nowhere')}`] },
    ]);
    const marks = (id: string) => Object.fromEntries(topics.find((t) => t.id === id)!.rows.map((r) => [r.slug, r.marks.join(',')]));
    expect(marks('project')).toEqual({ 'code-quality': '', 'internal-notes': 'hidden', 'maintainers/jean': '', 'maintainers/ryan': 'disabled' });
    expect(marks('skills')).toEqual({ README: '', 'ast-grep': '', 'ast-grep/rules': 'hidden', cargo: '', logo: 'binary', notes: '' });
    expect(marks('archive')).toEqual({ old: '' });
  });
});

describe('subjects(), read(topic, slug)', () => {
  /** What read() found, its content written as resources/read sends it. */
  const readText = (kb: KnowledgeBase, topic: string, slug: string) => {
    const r = read(kb, topic, slug);
    return r.kind === 'text' ? { kind: r.kind, text: resourceText(r.content, r.skill), mimeType: r.mimeType, problems: r.problems } : r;
  };
  const mcp = workspace(MCP_FILES, MCP_CONFIG);

  test('subjects(): hidden, disabled, binary and disabled topics excluded; MIME types', async () => {
    const kb = await open(mcp);
    expect((await subjects(kb)).map((s) => [s.topic.id, s.slug, s.mimeType])).toEqual([
      ['project', 'code-quality', 'text/markdown'],
      ['project', 'maintainers/jean', 'text/markdown'],
      ['skills', 'README', 'text/plain'],
      ['skills', 'ast-grep', 'text/markdown'],
      ['skills', 'cargo', 'text/markdown'],
      ['skills', 'notes', 'text/plain'],
    ]);
  });

  test('describeSubjects(): a page of subjects() is described alone, as subjects() describes it', async () => {
    const whole = await subjects(await open(mcp), { details: true });
    const kb = await open(mcp);
    const all = await subjects(kb, { about: false });
    expect(all.every((e) => e.about === undefined && e.title === undefined && e.size === undefined)).toBe(true);
    // A page across two topics.
    const page = all.slice(1, 4);
    await describeSubjects(kb, page, { details: true });
    const strip = ({ topic, ...rest }: (typeof all)[number]) => ({ topic: topic.id, ...rest, modified: rest.modified === undefined ? undefined : 'set' });
    expect(page.map(strip)).toEqual(whole.slice(1, 4).map(strip));
    expect(page.some((e) => e.size !== undefined)).toBe(true);
    expect([...all.slice(0, 1), ...all.slice(4)].every((e) => e.about === undefined && e.size === undefined)).toBe(true);
  });

  test('subjects(): pre-loaded subjects are included', async () => {
    const kb = await open(mcp, { knowledge: ['project/maintainers/jean', 'skills/*'] });
    expect((await subjects(kb)).map((s) => `${s.topic.id}/${s.slug}`)).toEqual([
      'project/code-quality',
      'project/maintainers/jean',
      'skills/README',
      'skills/ast-grep',
      'skills/cargo',
      'skills/notes',
    ]);
  });

  test('read(): the text kb learn prints raw; hidden subjects readable by exact slug', async () => {
    const kb = await open(mcp);
    for (const [topic, slug, mimeType, text] of [
      ['project', 'code-quality', 'text/markdown', '# Code quality\nRun the linters.\n'],
      ['skills', 'cargo', 'text/markdown', '```toml\n[package]\nname = "example"\n```\n'],
      ['skills', 'ast-grep/rules', 'text/markdown', 'RULES-BODY\n'],
      ['skills', 'notes', 'text/plain', 'plain notes\n'],
      ['skills', 'README', 'text/plain', 'read me\n'],
    ] as const) {
      const got = readText(kb, topic, slug);
      expect({ topic, slug, got }).toEqual({ topic, slug, got: { kind: 'text', text, mimeType, problems: [] } });
      const learned = await learnBoth(kb, args(topic, [slug]));
      expect({ topic, slug, text: learned.text, isError: learned.isError }).toEqual({ topic, slug, text, isError: false });
    }
  });

  test('read(): disabled subjects, binary files, unknown and disabled topics are not found', async () => {
    const kb = await open(mcp);
    expect(readText(kb, 'project', 'maintainers/ryan')).toEqual({ kind: 'not-found', why: 'topic "project" has no subject "maintainers/ryan"' });
    expect(readText(kb, 'skills', 'nope')).toEqual({ kind: 'not-found', why: 'topic "skills" has no subject "nope"' });
    expect(readText(kb, 'skills', 'logo')).toEqual({ kind: 'not-found', why: 'a binary file' });
    expect(readText(kb, 'nope', 'x')).toEqual({ kind: 'not-found', why: 'no enabled topic "nope"' });
    expect(readText(kb, 'archive', 'old')).toEqual({ kind: 'not-found', why: 'no enabled topic "archive"' });
    // By ID only, never by title (a kb:// URI names the ID).
    expect(readText(kb, 'General Project Knowledge', 'code-quality')).toEqual({ kind: 'not-found', why: 'no enabled topic "General Project Knowledge"' });
  });

  test('read(): a pre-loaded subject is read in full (it is listed as a resource), where learn would only say it is pre-loaded', async () => {
    const kb = await open(mcp, { knowledge: ['project/maintainers/jean'] });
    expect(readText(kb, 'project', 'maintainers/jean')).toEqual({ kind: 'text', text: 'Jean maintains the CLI.\n', mimeType: 'text/markdown', problems: [] });
    expect((await learnBoth(kb, args('project', ['maintainers/jean']))).text).toBe(
      'Subject "maintainers/jean" is already in your system prompt (pre-loaded); it is not returned again.\n',
    );
  });

  test('read(): invalid UTF-8 is replaced and reported', async () => {
    const kb = await open(workspace({ 't/bad.md': new Uint8Array([0x66, 0xff, 0x0a]) }, '[kb.topic.t]\nsubjects = "t"\n'));
    expect(readText(kb, 't', 'bad')).toEqual({
      kind: 'text',
      text: 'f\uFFFD\n',
      mimeType: 'text/markdown',
      problems: [
        {
          severity: 'warning',
          code: 'invalid-utf8',
          message: 'subject "bad" of topic "t" has byte sequences that are invalid in its encoding; they were replaced with U+FFFD',
        },
      ],
    });
  });
});

describe('configKeys(), resolveTopic()', () => {
  test('configKeys(): every topic field of every topic', async () => {
    const kb = await open(workspace(RFD_FILES, RFD_CONFIG));
    const fields = ['enable', 'title', 'introduction', 'description', 'subjects', 'learned', 'disabled'];
    expect(kb.configKeys()).toEqual([...fields.map((f) => `kb.topic.project.${f}`), ...fields.map((f) => `kb.topic.skills.${f}`)]);
    expect((await open(workspace({}, ''))).configKeys()).toEqual([]);
  });

  test('resolveTopic(): by exact ID, then by case-insensitive title; a disabled topic does not resolve', async () => {
    const kb = await open(workspace(MCP_FILES, MCP_CONFIG));
    expect(kb.resolveTopic('project')?.id).toBe('project');
    expect(kb.resolveTopic('general project KNOWLEDGE')?.id).toBe('project');
    expect(kb.resolveTopic('Learnable Assistant Skills')?.id).toBe('skills');
    expect(kb.resolveTopic('PROJECT')).toBeUndefined();
    expect(kb.resolveTopic('nope')).toBeUndefined();
    expect(kb.resolveTopic('archive')).toBeUndefined();
    expect(kb.topics.map((t) => [t.id, t.enable])).toEqual([['project', true], ['skills', true], ['archive', false]]);
  });
});

describe('a pluggable probe', () => {
  function countingProbe(lie: (path: string) => boolean = () => false) {
    const seen: string[] = [];
    const probe: Probe = {
      probe(paths) {
        seen.push(...paths);
        return paths.map((p) => (lie(p) ? PROBED.binary : probeFile(p)));
      },
    };
    return { probe, seen };
  }

  test('a listing goes through it; each file is probed at most once per KnowledgeBase', async () => {
    const root = workspace(MCP_FILES, MCP_CONFIG);
    const counting = countingProbe();
    const kb = await open(root, { knowledge: ['project/maintainers/jean'] }, { probe: counting.probe });
    expect(counting.seen).toEqual([]);
    const skills = kb.topics.find((t) => t.id === 'skills')!;
    const dir = skills.subjectsDir;

    const first = await learnBoth(kb, args('skills'));
    expect(first.text).toContain('- README\n- ast-grep\n- cargo\n- notes\n');
    // Every non-hidden file of the topic, once; nothing of the other topics.
    expect([...counting.seen].sort()).toEqual(['README', 'ast-grep.md', 'cargo.toml', 'logo.png', 'notes.txt'].map((f) => join(dir, f)));

    const after = counting.seen.length;
    await learnBoth(kb, args('skills'));
    expect(counting.seen.length).toBe(after);

    // Everything else the service does probes each remaining file once at most.
    await prompt(kb);
    learnToolOf(kb);
    toolsOf(kb);
    await subjects(kb);
    await list(kb, (d) => d);
    await learnBoth(kb, args('project'));
    await call(kb, { topic: 'skills', subjects: '*' });
    const counts = new Map<string, number>();
    for (const p of counting.seen) counts.set(p, (counts.get(p) ?? 0) + 1);
    expect([...counts.entries()].filter(([, n]) => n > 1)).toEqual([]);

    // Another KnowledgeBase probes afresh.
    const again = await open(root, {}, { probe: counting.probe });
    const before = counting.seen.length;
    await learnBoth(again, args('skills'));
    expect(counting.seen.length - before).toBe(5);
  });

  test("its verdicts are the ones used: a file it calls binary is neither listed, learnable, shown nor a resource", async () => {
    const root = workspace({ 't/a.md': 'A\n', 't/b.md': 'B\n' }, '[kb.topic.t]\nsubjects = "t"\n');
    const lying = countingProbe((p) => p.endsWith('b.md'));
    const kb = await open(root, {}, { probe: lying.probe });
    expect((await learnBoth(kb, args('t'))).text).toBe('# Topic: t\n\n## Available subjects:\n\n- a\n\nUse the `learn` tool with the `subjects` argument to learn specific subjects.\n');
    expect((await subjects(kb)).map((s) => s.slug)).toEqual(['a']);
    expect((await list(kb, (d) => d))[0].rows.map((r) => [r.slug, r.marks])).toEqual([['a', []], ['b', ['binary']]]);
    // The truthful default probe lists both.
    const honest = await open(root);
    expect((await learnBoth(honest, args('t'))).text).toContain('- a\n- b\n');
    expect(learnToolOf(honest)?.description).toBe('Learn about knowledge base topics and subjects.\n\nAvailable topics:\n- t');
    // A probe that calls every file binary leaves nothing to learn or show.
    const allBinary = await open(root, {}, { probe: countingProbe(() => true).probe });
    expect(learnToolOf(allBinary)).toBeUndefined();
    expect((await prompt(allBinary)).text).toBe('');
  });
});

describe('globs load on demand (no preload)', () => {
  const files = { 't/notes/a.md': 'A\n', 't/notes/b.md': 'B\n', 't/other/c.md': 'C\n', 't/top.md': 'TOP\n' };
  const config = '[kb.topic.t]\nsubjects = "t"\nlearned = ["notes/*"]\n';

  test('a learned glob in the configuration pre-loads its subjects', async () => {
    const kb = await open(workspace(files, config));
    expect(await prompt(kb)).toEqual({
      text: `<knowledge>
The following knowledge has been pre-loaded into your system prompt:

<topic "t">

<subject "notes/a">
A
</subject>

<subject "notes/b">
B
</subject>
</topic>

The following knowledge topics are available to learn:

- t

Use the \`learn\` tool to consume this knowledge.

${NOTE}
</knowledge>
`,
      problems: [],
    });
    expect((await learnBoth(kb, args('t'))).text).toBe(
      '# Topic: t\n\n## Available subjects:\n\n- other/c\n- top\n\nUse the `learn` tool with the `subjects` argument to learn specific subjects.\n\n## Already learned (in system prompt):\n\n- notes/a\n- notes/b\n',
    );
    expect((await check(kb)).diagnostics).toEqual([]);
  });

  test("a call's glob patterns: *, ?, braces, **", async () => {
    const kb = await open(workspace(files, config));
    expect(await call(kb, { topic: 't', subjects: 'other/*' })).toEqual({ text: '<subject "other/c">\nC\n</subject>\n', isError: false, problems: [] });
    expect(await call(kb, { topic: 't', subjects: ['to?', '{other/c,top}'] })).toEqual({
      text: '<subject "top">\nTOP\n</subject>\n\n<subject "other/c">\nC\n</subject>\n',
      isError: false,
      problems: [],
    });
    expect(await call(kb, { topic: 't', subjects: ['notes/*'] })).toEqual({
      text: 'Subject "notes/a" is already in your system prompt (pre-loaded); it is not returned again.\nSubject "notes/b" is already in your system prompt (pre-loaded); it is not returned again.\n',
      isError: true,
      problems: [],
    });
    const r = await learnBoth(kb, args('t', ['**/c', 'o*/*']));
    expect(r).toMatchObject({ text: '<subject "other/c">\nC\n</subject>\n', isError: false, byteChunks: 1 });
  });
});
