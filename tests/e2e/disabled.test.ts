// Disabled means never: a disabled subject, and every bundled file of a
// disabled skill, is never listed, loaded (exact, alias or glob),
// pre-loaded, searched, recalled, served as a resource, counted as
// pre-loaded or offered, through every front end (kb/index/disabled.ts).
import { describe, expect, test } from 'bun:test';
import { BINARY, fixture, run } from './harness.ts';
import { connect, text } from './mcp-client.ts';

const skill = (name: string) => `---\nname: ${name}\ndescription: the ${name} skill\n---\nThe ${name} skill zanzibar.\n`;

const FILES = {
  't/dsk/SKILL.md': skill('dsk'),
  't/dsk/ref.md': 'reference zanzibar\n',
  't/dsk/sub/deep.md': 'deep zanzibar\n',
  't/ena/SKILL.md': skill('ena'),
  't/ena/ref1.md': 'first zanzibar\n',
  't/ena/ref2.md': 'second zanzibar\n',
  't/notes.md': 'notes zanzibar\n',
  't/notes/x.md': 'a note below a disabled slug zanzibar\n',
  't/ok.md': 'ok zanzibar\n',
};

/** `dsk` (a skill), `ena/ref2` (a bundled file of an enabled skill) and
 *  `notes` (a subject beside a folder of the same name) disabled. */
const CONFIG = '[kb.topic.t]\nsubjects = "t"\ndisabled = ["dsk", "ena/ref2", "notes"]\n';

const kb = (root: string, ...args: string[]) => run(BINARY, root, args);

/** What a learn call says of a slug no subject has. */
const none = (p: string) => `No subjects match "${p}" in topic "t". Call \`learn\` with only the topic to list its subjects.\n`;

describe('a disabled skill: its bundled files are disabled too', () => {
  test('kb learn: by exact slug, alias or glob, nothing of it loads; an enabled skill does not offer its disabled file', () => {
    const root = fixture(FILES, CONFIG);
    for (const p of ['dsk', 'dsk/SKILL', 'dsk/ref', 'dsk/sub/deep', 'ena/ref2']) expect(kb(root, 'learn', 't', p).out).toBe(none(p));
    // A disabled subject beside a folder of its name: the folder is offered.
    expect(kb(root, 'learn', 't', 'notes').out).toBe('No subject is named "notes"; it is a folder. Its subjects:\n- notes/x\nLoad one by its slug, or all of them with "notes/*".\n');
    // A glob says nothing of the disabled bundled files it passed over.
    expect(kb(root, 'learn', 't', 'dsk/**').out).toBe(none('dsk/**'));
    const ena = kb(root, 'learn', 't', 'ena').out;
    expect(ena).toContain('- ena/ref1 (ref1.md)');
    expect(ena).not.toContain('ena/ref2');
    expect(kb(root, 'learn', 't', 'ena/ref1').out).toContain('first zanzibar');
    // The subject in the folder named like a disabled slug is its own.
    expect(kb(root, 'learn', 't', 'notes/x').out).toContain('a note below');
  });

  test('kb search and kb recall never show one; a subject merely below a disabled slug is searched', () => {
    const root = fixture(FILES, CONFIG);
    const found = kb(root, 'search', '--format', 'json', 'zanzibar').out;
    const slugs = (JSON.parse(found).results as { slug: string }[]).map((r) => r.slug).sort();
    expect(slugs).toEqual(['ena', 'ena/ref1', 'notes/x', 'ok']);
    const recalled = kb(root, 'recall', 'zanzibar', 'reference', 'deep').out;
    expect(recalled).not.toContain('dsk');
    expect(recalled).not.toContain('ena/ref2');
  });

  test('the prompt never pre-loads one; kb check counts what the prompt pre-loads, and names the pattern', () => {
    const root = fixture(FILES, CONFIG.replace('disabled =', 'learned = ["dsk/ref", "ena/ref1", "ok"]\ndisabled ='));
    const prompt = kb(root, 'prompt');
    expect(prompt.out).not.toContain('reference zanzibar');
    expect(prompt.out).toContain('<subject "ena/ref1">');
    expect(prompt.err).toContain('warning: topic "t": learned pattern "dsk/ref" matches no subject');
    expect(kb(root, 'prompt', '-k', 't/dsk/sub/deep').out).not.toContain('deep zanzibar');
    const check = kb(root, 'check', '--format', 'json');
    const report = JSON.parse(check.out);
    expect(report.topics[0].preloaded).toBe(2);
    expect(report.diagnostics.map((d: { message: string }) => d.message)).toContain('topic "t": learned pattern "dsk/ref" matches no subject');
  });

  test('kb list marks each of them disabled', () => {
    const root = fixture(FILES, CONFIG);
    const lines = kb(root, 'list').out.split('\n');
    const marks = (slug: string) => lines.find((l) => l.trim().startsWith(`${slug} `)) ?? '';
    for (const slug of ['dsk', 'dsk/ref', 'dsk/sub/deep', 'ena/ref2', 'notes']) expect(marks(slug)).toContain('disabled');
    expect(marks('ena/ref1')).not.toContain('disabled');
    expect(marks('notes/x')).not.toContain('disabled');
  });

  test('kb mcp: resources/read and resources/list, the learn tool and the prompt serve none of them', async () => {
    const root = fixture(FILES, CONFIG);
    const c = await connect(root);
    try {
      for (const slug of ['dsk/ref', 'dsk/sub/deep', 'ena/ref2', 'dsk']) {
        await expect(c.client.readResource({ uri: `kb://t/${slug}` })).rejects.toThrow(`resource not found: kb://t/${slug} (topic "t" has no subject "${slug}")`);
      }
      expect(JSON.stringify((await c.client.readResource({ uri: 'kb://t/ena/ref1' })).contents)).toContain('first zanzibar');
      const listed = (await c.client.listResources()).resources.map((r) => r.name).sort();
      expect(listed).toEqual(['t/ena', 't/notes/x', 't/ok']);
      expect(text(await c.client.callTool({ name: 'learn', arguments: { topic: 't', subjects: ['dsk/ref'] } }))).toBe(none('dsk/ref'));
      const got = await c.client.getPrompt({ name: 'knowledge', arguments: { knowledge: 't/dsk/ref' } });
      expect(JSON.stringify(got)).not.toContain('reference zanzibar');
    } finally {
      await c.client.close();
    }
  });
});

describe('a disabled entry that looks like a glob', () => {
  const config = '[kb.topic.t]\nsubjects = "t"\ndisabled = ["dsk/*"]\n';
  const said = 'warning: topic "t": disabled entry "dsk/*" looks like a glob, but disabled takes exact slugs: it disables only a subject named exactly that; to leave files out by pattern, write the pattern in t/.kbignore (gitignore syntax) (.jp/config.toml:3)\n';

  test('kb check warns, pointing to .kbignore, and says the slug matches no subject', () => {
    const r = kb(fixture(FILES, config), 'check');
    expect(r.code).toBe(1);
    expect(r.out).toContain(said);
    expect(r.out).toContain('error: topic "t": disabled slug "dsk/*" matches no subject (.jp/config.toml:3)\n');
  });

  test('kb prompt, kb learn and kb mcp say it on stderr; it disables nothing', async () => {
    const root = fixture(FILES, config);
    const prompt = kb(root, 'prompt');
    expect(prompt.err).toContain(said);
    const learn = kb(root, 'learn', 't', 'dsk/ref');
    expect(learn.err).toBe(said);
    expect(learn.out).toBe('reference zanzibar\n');
    const c = await connect(root);
    try {
      expect(text(await c.client.callTool({ name: 'learn', arguments: { topic: 't', subjects: ['dsk/ref'] } }))).toBe('reference zanzibar\n');
      expect(c.stderr()).toContain(said);
    } finally {
      await c.client.close();
    }
  });
});
