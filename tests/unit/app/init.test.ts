// kb init in process (app/init.ts, config/topic-id.ts): what it writes,
// refuses and reports, on fixture directories; what it writes is read back
// by KnowledgeBase.open as any command reads it. The command line's text is
// tested on the binary (tests/e2e/init.test.ts).
import { describe, expect, test } from 'bun:test';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { init, type InitOptions } from '../../../src/app/init.ts';
import { KnowledgeBase } from '../../../src/app/knowledge-base.ts';
import { remember } from '../../../src/app/memory.ts';
import { isPlainTopicId, topicIdFrom, topicIdKey, uniqueTopicId } from '../../../src/config/topic-id.ts';
import { makeTempDir } from '../../support/temp.ts';
import { COSTS } from '../../../src/render/costs.ts';

/** A plain directory (no .jp) holding `files`. */
function folder(files: Record<string, string> = {}): string {
  const root = makeTempDir('kb-init-');
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(join(root, p, '..'), { recursive: true });
    writeFileSync(join(root, p), c);
  }
  return root;
}

function env(root: string): Record<string, string> {
  return { JP_GLOBAL_CONFIG_DIR: join(root, '.global'), XDG_CACHE_HOME: join(root, '.cache'), JP_USER_DATA_DIR: join(root, '.data') };
}

function run(root: string, dirs: string[] = [], more: Partial<InitOptions> = {}) {
  return init({ cwd: root, dirs, dryRun: false, env: env(root), home: root, ...more });
}

function open(root: string): Promise<KnowledgeBase> {
  return KnowledgeBase.open({ cwd: root, cfg: [], knowledge: [], env: env(root), home: root }, { costs: COSTS });
}

const config = (root: string) => readFileSync(join(root, '.jp/config.toml'), 'utf8');

describe('topic IDs from folder names', () => {
  test.each([
    ['docs', 'docs'],
    ['Docs', 'docs'],
    ['My Notes', 'my-notes'],
    ['Café déjà vu', 'cafe-deja-vu'],
    ['a.b/c', 'a-b-c'],
    ['--x--', 'x'],
    ['_private', 'private'],
    ['snake_case', 'snake_case'],
    ['v1.2', 'v1-2'],
    ['笔记', 'topic'],
    ['...', 'topic'],
    ['a\u001bb', 'a-b'],
  ])('%j -> %j', (name, id) => {
    expect(topicIdFrom(name)).toBe(id);
    expect(isPlainTopicId(id)).toBe(true);
  });

  test('at most 64 characters, never ending in - or _', () => {
    const id = topicIdFrom(`${'a'.repeat(63)}-b`);
    expect(id).toBe('a'.repeat(63));
    expect(isPlainTopicId(topicIdFrom('x'.repeat(500)))).toBe(true);
  });

  test('unique as JP_CFG_KB_TOPIC_<ID>_* reads it: case and - versus _ do not make two IDs', () => {
    expect(topicIdKey('my-notes')).toBe(topicIdKey('MY_NOTES'));
    const taken = new Set(['Docs', 'my_notes', 'notes', 'notes-2'].map(topicIdKey));
    expect(uniqueTopicId('docs', taken)).toBe('docs-2');
    expect(uniqueTopicId('my-notes', taken)).toBe('my-notes-2');
    expect(uniqueTopicId('notes', taken)).toBe('notes-3');
    expect(uniqueTopicId('fresh', taken)).toBe('fresh');
    const long = 'y'.repeat(64);
    const made = uniqueTopicId(long, new Set([topicIdKey(long)]));
    expect(made).toBe(`${'y'.repeat(62)}-2`);
    expect(isPlainTopicId(made)).toBe(true);
  });
});

describe('kb init in a fresh directory', () => {
  test('no folder: a notes topic at .jp/kb/notes, its folder created, ready for remember', async () => {
    const root = folder();
    const r = await run(root);
    expect(r.errors).toEqual([]);
    expect(r).toMatchObject({ createdConfig: true, createdWorkspace: true, written: true, config: '.jp/config.toml', existing: 0 });
    expect(r.added).toEqual([{ id: 'notes', subjects: '.jp/kb/notes', created: true, skills: [], skillsMore: false, isSkill: false }]);
    expect(config(root)).toBe(r.text);
    expect(r.text).toMatch(/^# kb: /);
    expect(r.text.endsWith('\n[kb.topic.notes]\nsubjects = ".jp/kb/notes"\n')).toBe(true);
    expect(statSync(join(root, '.jp/kb/notes')).isDirectory()).toBe(true);

    const kb = await open(root);
    expect(kb.problems).toEqual([]);
    expect(kb.topics.map((t) => [t.id, t.subjectsDir])).toEqual([['notes', join(root, '.jp/kb/notes')]]);
    const out = await remember(kb, { topic: 'notes', text: 'Releases are tagged on Tuesdays.', tags: [], force: false }, { source: 'user' });
    expect(out.isError).toBe(false);
    expect(existsSync(join(root, '.jp/kb/notes', `${out.slug}.md`))).toBe(true);
  });

  test('folders given: one topic each, IDs from their names, made valid and unique', async () => {
    const root = folder({ 'docs/a.md': 'A\n', 'My Notes/n.md': 'N\n', 'x/Docs/b.md': 'B\n', '笔记/c.md': 'C\n' });
    const r = await run(root, ['docs', 'My Notes/', './x/Docs', '笔记']);
    expect(r.errors).toEqual([]);
    expect(r.added.map((t) => [t.id, t.subjects, t.from])).toEqual([
      ['docs', 'docs', undefined],
      ['my-notes', 'My Notes', 'My Notes'],
      ['docs-2', 'x/Docs', 'Docs'],
      ['topic', '笔记', '笔记'],
    ]);
    expect(r.text).toContain('[kb.topic.my-notes]\nsubjects = "My Notes"\n\n[kb.topic.docs-2]\nsubjects = "x/Docs"\n');
    const kb = await open(root);
    expect(kb.problems).toEqual([]);
    expect(kb.topics.map((t) => t.id)).toEqual(['docs', 'my-notes', 'docs-2', 'topic']);
    expect(kb.topics[3].subjectsDir).toBe(join(root, '笔记'));
  });

  test('a folder of Agent Skills is recognised, two levels down, the outermost skill folders only', async () => {
    const root = folder({
      'skills/pdf/SKILL.md': '---\nname: pdf\ndescription: PDFs\n---\n',
      'skills/pdf/inner/SKILL.md': 'bundled\n',
      'skills/group/xlsx/SKILL.md': '---\nname: xlsx\ndescription: sheets\n---\n',
      'skills/.hidden/SKILL.md': 'x\n',
      'skills/README.md': 'Skills\n',
      'one/SKILL.md': '---\nname: one\ndescription: d\n---\n',
      'plain/a.md': 'a\n',
    });
    const r = await run(root, ['skills', 'one', 'plain']);
    expect(r.added.map((t) => [t.id, t.skills, t.isSkill])).toEqual([
      ['skills', ['pdf', 'group/xlsx'], false],
      ['one', [], true],
      ['plain', [], false],
    ]);
  });

  test('--dry-run: the same text, nothing on disk', async () => {
    const root = folder({ 'docs/a.md': 'A\n' });
    const dry = await run(root, ['docs'], { dryRun: true });
    expect(dry).toMatchObject({ written: false, dryRun: true, createdConfig: true, errors: [] });
    expect(existsSync(join(root, '.jp'))).toBe(false);
    const bare = await run(root, [], { dryRun: true });
    expect(bare.added[0]).toMatchObject({ id: 'notes', created: true });
    expect(existsSync(join(root, '.jp'))).toBe(false);
    const real = await run(root, ['docs']);
    expect(real.text).toBe(dry.text);
    expect(config(root)).toBe(dry.text);
  });

  test('-w: the directory named, with folders relative to the working directory', async () => {
    const root = folder({ 'ws/docs/a.md': 'A\n' });
    const r = await init({ cwd: root, workspace: 'ws', dirs: ['ws/docs'], dryRun: false, env: env(root), home: root });
    expect(r).toMatchObject({ root: join(root, 'ws'), elsewhere: true, errors: [] });
    expect(r.added.map((t) => t.subjects)).toEqual(['docs']);
    const wrong = await init({ cwd: root, workspace: 'ws', dirs: ['docs'], dryRun: false, env: env(root), home: root });
    expect(wrong.errors[0].message).toBe(`no such folder; folders are relative to the working directory: did you mean ${join('ws', 'docs')}?`);
    const none = await init({ cwd: root, workspace: 'nope', dirs: [], dryRun: false, env: env(root), home: root });
    expect(none.errors).toEqual([{ severity: 'error', code: 'init', message: `no such directory: ${join(root, 'nope')}`, where: '-w' }]);
  });

  test('a folder inside another topic\'s: a note, as its files are subjects of both', async () => {
    const root = folder({ '.jp/config.toml': '[kb.topic.all]\nsubjects = "."\n', 'docs/api/a.md': 'A\n' });
    const r = await run(root, ['docs', 'docs/api']);
    expect(r.added.map((t) => t.id)).toEqual(['docs', 'api']);
    expect(r.notes.map((n) => n.message)).toEqual([
      'docs is inside the folder of topic "all": its files are subjects of both',
      'docs/api is inside the folder of topic "all": its files are subjects of both',
      'docs/api is inside the folder of topic "docs": its files are subjects of both',
    ]);
  });

  test('inside another workspace: says that the new one hides it', async () => {
    const outer = folder({ '.jp/config.toml': '', 'inner/docs/a.md': 'A\n' });
    const r = await run(join(outer, 'inner'), ['docs']);
    expect(r.outer).toBe(outer);
    expect(r.written).toBe(true);
  });
});

describe('kb init never overwrites', () => {
  const OLD = `# Our knowledge base.
#   (hand-written: keep this layout)

[kb.topic.docs]   # the manual
title = "Manual"
subjects = "docs"

[other.tool]
key = 1
`;

  test('an existing configuration keeps every byte; only the missing tables are appended', async () => {
    const root = folder({ '.jp/config.toml': OLD, 'docs/a.md': 'A\n', 'guides/g.md': 'G\n' });
    chmodSync(join(root, '.jp/config.toml'), 0o640);
    const r = await run(root, ['docs', 'guides']);
    expect(r.errors).toEqual([]);
    expect(r).toMatchObject({ createdConfig: false, createdWorkspace: false, existing: 1, written: true });
    expect(r.added.map((t) => t.id)).toEqual(['guides']);
    expect(r.notes).toEqual([{ given: 'docs', message: 'docs is already topic "docs"; nothing to add' }]);
    expect(r.text).toBe('[kb.topic.guides]\nsubjects = "guides"\n');
    expect(config(root)).toBe(`${OLD}\n${r.text}`);
    expect(statSync(join(root, '.jp/config.toml')).mode & 0o777).toBe(0o640);
    const kb = await open(root);
    expect(kb.topics.map((t) => t.id)).toEqual(['docs', 'guides']);
  });

  test('line ends and a missing last newline are respected', async () => {
    const crlf = folder({ '.jp/config.toml': '[kb.topic.a]\r\nsubjects = "a"\r\n', 'a/x.md': 'x\n', 'b/y.md': 'y\n' });
    await run(crlf, ['b']);
    expect(config(crlf)).toBe('[kb.topic.a]\r\nsubjects = "a"\r\n\r\n[kb.topic.b]\r\nsubjects = "b"\r\n');
    const open = folder({ '.jp/config.toml': '[kb.topic.a]\nsubjects = "a"', 'a/x.md': 'x\n', 'b/y.md': 'y\n' });
    await run(open, ['b']);
    expect(config(open)).toBe('[kb.topic.a]\nsubjects = "a"\n\n[kb.topic.b]\nsubjects = "b"\n');
    const empty = folder({ '.jp/config.toml': '', 'b/y.md': 'y\n' });
    await run(empty, ['b']);
    expect(config(empty)).toBe('[kb.topic.b]\nsubjects = "b"\n');
  });

  test('twice: the second run adds nothing and writes nothing', async () => {
    const root = folder({ 'docs/a.md': 'A\n' });
    await run(root, ['docs']);
    const before = config(root);
    const mtime = statSync(join(root, '.jp/config.toml')).mtimeMs;
    const again = await run(root, ['docs']);
    expect(again).toMatchObject({ added: [], text: '', written: false, errors: [], existing: 1 });
    expect(again.notes).toEqual([{ given: 'docs', message: 'docs is already topic "docs"; nothing to add' }]);
    const bare = await run(folder(), []);
    expect(bare.written).toBe(true);
    const bareAgain = await run(bare.root, []);
    expect(bareAgain.notes).toEqual([{ given: '.jp/kb/notes', message: '.jp/kb/notes is already topic "notes"; nothing to add' }]);
    expect(config(root)).toBe(before);
    expect(statSync(join(root, '.jp/config.toml')).mtimeMs).toBe(mtime);
  });

  test('already configured means the same folder, through any path; the same folder twice is one topic', async () => {
    const root = folder({ '.jp/config.toml': '[kb.topic.d]\nsubjects = "./docs/"\n', 'docs/a.md': 'A\n', 'more/b.md': 'B\n' });
    symlinkSync('docs', join(root, 'alias'));
    const r = await run(root, ['alias', join(root, 'docs'), 'more', 'more/']);
    expect(r.added.map((t) => t.id)).toEqual(['more']);
    expect(r.notes.map((n) => n.message)).toEqual(['alias is already topic "d"; nothing to add', `${join(root, 'docs')} is already topic "d"; nothing to add`, 'more/ is the folder more given before; one topic for both']);
  });

  test('IDs already taken in any configuration source, valid or not, are not reused', async () => {
    const root = folder({ '.jp/config.toml': '[kb.topic.docs]\ntitle = "no subjects yet"\n', '.jp.toml': '[kb.topic.My_Guides]\nsubjects = "elsewhere"\n', 'docs/a.md': 'A\n', 'my-guides/g.md': 'G\n' });
    const r = await run(root, ['docs', 'my-guides']);
    expect(r.added.map((t) => t.id)).toEqual(['docs-2', 'my-guides-2']);
  });
});

describe('kb init refuses, and then writes nothing', () => {
  async function refused(root: string, dirs: string[], messages: [string, string | undefined][]): Promise<void> {
    const before = existsSync(join(root, '.jp/config.toml')) ? config(root) : undefined;
    const r = await run(root, dirs);
    expect(r.errors.map((e) => [e.message, e.where])).toEqual(messages);
    expect(r.written).toBe(false);
    if (before === undefined) expect(existsSync(join(root, '.jp'))).toBe(false);
    else expect(config(root)).toBe(before);
  }

  test('a missing folder, a file, one outside the workspace, a link out: each said, nothing written', async () => {
    const outside = folder({ 'x.md': 'x\n' });
    const root = folder({ 'docs/a.md': 'A\n', 'file.md': 'f\n' });
    symlinkSync(outside, join(root, 'out'));
    symlinkSync(join(root, 'gone'), join(root, 'dangling'));
    await refused(root, ['docs', 'missing', 'file.md', outside, 'out', 'dangling'], [
      ['no such folder', 'missing'],
      ['not a folder: a topic is a folder of text files', 'file.md'],
      [`outside the workspace, ${root}: give a folder inside it, or run kb init in a folder that holds both`, outside],
      [`leads out of the workspace through a symbolic link (to ${outside}); a topic's folder must be inside the workspace, ${root}`, 'out'],
      ['a broken symbolic link', 'dangling'],
    ]);
  });

  test('a link inside the workspace is fine, written as given', async () => {
    const root = folder({ 'real/docs/a.md': 'A\n' });
    symlinkSync(join(root, 'real/docs'), join(root, 'docs'));
    const r = await run(root, ['docs']);
    expect(r.added.map((t) => [t.id, t.subjects])).toEqual([['docs', 'docs']]);
  });

  test('.jp or the configuration file leading out of the workspace', async () => {
    const elsewhere = folder({ 'config.toml': '# theirs\n' });
    const linkedJp = folder({ 'docs/a.md': 'A\n' });
    symlinkSync(elsewhere, join(linkedJp, '.jp'));
    const r1 = await run(linkedJp, ['docs']);
    expect(r1.errors[0].message).toStartWith('.jp is a symbolic link out of the workspace');
    const linkedFile = folder({ '.jp/keep': '', 'docs/a.md': 'A\n' });
    symlinkSync(join(elsewhere, 'config.toml'), join(linkedFile, '.jp/config.toml'));
    const r2 = await run(linkedFile, ['docs']);
    expect(r2.errors[0]).toMatchObject({ where: '.jp/config.toml' });
    expect(r2.errors[0].message).toStartWith('the configuration file is a symbolic link out of the workspace');
    expect(readFileSync(join(elsewhere, 'config.toml'), 'utf8')).toBe('# theirs\n');
    expect(lstatSync(join(linkedFile, '.jp/config.toml')).isSymbolicLink()).toBe(true);
  });

  test('a configuration file kb init cannot append to: invalid TOML, an inline kb table, JSON', async () => {
    const broken = folder({ '.jp/config.toml': '[kb.topic.a\n', 'docs/a.md': 'A\n' });
    const b = await run(broken, ['docs']);
    expect(b.errors).toHaveLength(1);
    expect(b.errors[0].message).toMatch(/^invalid TOML: .*; kb init appends to a file that reads: fix it first \(kb check\)$/);
    expect(b.errors[0].where).toStartWith('.jp/config.toml:1');
    expect(config(broken)).toBe('[kb.topic.a\n');
    const inline = folder({ '.jp/config.toml': 'kb = { topic = { a = { subjects = "a" } } }\n', 'a/x.md': 'x\n', 'docs/a.md': 'A\n' });
    const r = await run(inline, ['docs']);
    expect(r.errors[0].message).toStartWith('cannot append the new topics to .jp/config.toml without changing what it says');
    expect(r.text).toBe('[kb.topic.docs]\nsubjects = "docs"\n');
    expect(config(inline)).toBe('kb = { topic = { a = { subjects = "a" } } }\n');
    const json = folder({ '.jp/config.json': '{"kb": {"topic": {}}}\n', 'docs/a.md': 'A\n' });
    const j = await run(json, ['docs']);
    expect(j.errors).toEqual([{ severity: 'error', code: 'init', message: 'kb init appends only to a TOML file, and this workspace\'s configuration is .jp/config.json: add kb.topic.docs.subjects = "docs" to it by hand', where: '.jp/config.json' }]);
    expect(existsSync(join(json, '.jp/config.toml'))).toBe(false);
  });

  test('a notes folder in the way', async () => {
    const root = folder({ '.jp/kb/notes': 'a file\n' });
    const r = await run(root, []);
    expect(r.errors.map((e) => e.message)).toEqual(['.jp/kb/notes is in the way: it is not a folder inside the workspace']);
    expect(existsSync(join(root, '.jp/config.toml'))).toBe(false);
  });
});

describe('kb init changes no byte it did not add, and loses no table', () => {
  test('CRLF line ends: the tables in CRLF; a Latin-1 byte kept as it is, with a note', async () => {
    const root = folder({ '.jp/config.toml': '# kb\r\n[kb.topic.a]\r\nsubjects = "a"\r\n', 'a/x.md': 'x\n', 'docs/a.md': 'A\n' });
    const r = await run(root, ['docs']);
    expect(r.errors).toEqual([]);
    expect(r.text).toBe('[kb.topic.docs]\r\nsubjects = "docs"\r\n');
    expect(config(root)).toBe('# kb\r\n[kb.topic.a]\r\nsubjects = "a"\r\n\r\n[kb.topic.docs]\r\nsubjects = "docs"\r\n');

    const latin = folder({ 'docs/a.md': 'A\n' });
    mkdirSync(join(latin, '.jp'));
    const old = new Uint8Array([0x23, 0x20, 0xe9, 0x0a]);
    writeFileSync(join(latin, '.jp/config.toml'), old);
    const l = await run(latin, ['docs']);
    expect(l.errors).toEqual([]);
    expect(l.notes.map((n) => n.message)).toEqual(['.jp/config.toml is not valid UTF-8 (byte 0xe9 at offset 2, read as U+FFFD): kb init changes no byte of it, but a configuration file must be UTF-8 (TOML requires it): save it as UTF-8']);
    expect([...readFileSync(join(latin, '.jp/config.toml'))]).toEqual([...old, ...new TextEncoder().encode('\n[kb.topic.docs]\nsubjects = "docs"\n')]);
  });

  test('a result over 1 MiB is not written', async () => {
    const big = `# ${'x'.repeat(1024 * 1024 - 10)}\n`;
    const root = folder({ '.jp/config.toml': big, 'docs/a.md': 'A\n' });
    const r = await run(root, ['docs']);
    expect(r.errors.map((e) => e.message)).toEqual([`with the new topics, .jp/config.toml would be ${big.length + 35} bytes, more than the 1 MiB kb reads: nothing written; move part of it to a file it extends (\`extends\`), then run kb init again`]);
    expect(r.written).toBe(false);
    expect(config(root)).toBe(big);
  });

  test('folder names with controls are TOML escapes', async () => {
    const root = folder({ 'a\u202eb/x.md': 'x\n', 'c\u0085d/y.md': 'y\n' });
    const r = await run(root, ['a\u202eb', 'c\u0085d']);
    expect(r.errors).toEqual([]);
    expect(r.text).toContain('[kb.topic.a-b]\nsubjects = "a\\u202eb"\n\n[kb.topic.c-d]\nsubjects = "c\\u0085d"\n');
    const kb = await open(root);
    expect(kb.topics.map((t) => t.subjectsDir)).toEqual([join(root, 'a\u202eb'), join(root, 'c\u0085d')]);
  });

  test('eight at once in one process: every table written', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 8; i++) files[`d${i}/x.md`] = 'x\n';
    const root = folder(files);
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => run(root, [`d${i}`])));
    expect(results.map((r) => [r.errors, r.written])).toEqual(Array(8).fill([[], true]));
    const kb = await open(root);
    expect(kb.topics.map((t) => t.id).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `d${i}`));
  });
});
