// app/export.ts in process: which subjects an export gives and under which
// names (collisions, skills, disabled, hidden), what each record says, that
// records come one at a time (a file removed after the first record is
// said, not silently dropped), and the summary's counts.
import { describe, expect, test } from 'bun:test';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { exportSubjects, exportTopics } from '../../../src/app/export.ts';
import { KnowledgeBase } from '../../../src/app/knowledge-base.ts';
import type { ExportItem } from '../../../src/answer/export.ts';
import { COSTS } from '../../../src/render/costs.ts';
import { makeTempDir, tempWorkspace } from '../../support/temp.ts';

const HOME = makeTempDir('kb-export-home-');

function open(root: string): Promise<KnowledgeBase> {
  return KnowledgeBase.open({ cwd: root, cfg: [], knowledge: [], env: { XDG_CACHE_HOME: join(HOME, 'cache') }, home: HOME }, { costs: COSTS });
}

async function all(kb: KnowledgeBase, names: string[] = [], hidden = false): Promise<ExportItem[]> {
  const chosen = exportTopics(kb, names);
  if ('error' in chosen) throw new Error(chosen.error);
  const out: ExportItem[] = [];
  for await (const item of exportSubjects(kb, chosen.topics, { hidden })) out.push(item);
  return out;
}

const names = (items: ExportItem[]) => items.flatMap((i) => (i.kind === 'subject' ? [`${i.record.slug} ${i.record.path}`] : i.kind === 'skipped' ? [`skipped ${i.slug} ${i.why}`] : []));

const CONFIG = '[kb.topic.t]\nsubjects = "t"\ndisabled = ["off", "tool"]\n';

const FILES = {
    't/crate/notes.md': '# Notes\n',
  't/crate/notes.txt': 'notes, as text\n',
  't/off.md': 'disabled\n',
  't/skill/SKILL.md': '---\nname: skill\ndescription: Does a thing\n---\nSteps.\n',
  't/skill/ref.md': 'bundled\n',
  't/tool/SKILL.md': '---\nname: tool\ndescription: Disabled skill\n---\nNo.\n',
  't/tool/run.md': 'bundled with a disabled skill\n',
  't/ls.txt': 'NAME\n    ls - list directory contents\n\nSYNOPSIS\n    ls\n',
  't/yaml.md': '---\ndescription: |\n  Two\n  lines\ntags:\n  - x\n  - 7\n  - " y "\n---\nBody.\n',
};

describe('kb export: which subjects, under which names', () => {
  test('files that share a slug under their alias; skills under their slug; a disabled skill and its files never', async () => {
    const kb = await open(tempWorkspace('kb-export-', FILES, CONFIG));
    const items = await all(kb);
    expect(names(items)).toEqual(['crate/notes t/crate/notes.md', 'ls t/ls.txt', 'skill t/skill/SKILL.md', 'yaml t/yaml.md', 'crate/notes.txt t/crate/notes.txt']);
    expect(items.at(-1)).toEqual({ kind: 'summary', summary: { topics: ['t'], exported: 5, replaced: 0, binary: 0, unreadable: 0, hidden: 1, disabled: 3 } });
    const hidden = await all(kb, ['t'], true);
    expect(names(hidden)).toContain('skill/ref t/skill/ref.md');
    expect(names(hidden).some((n) => n.includes('tool'))).toBe(false);
  });

  test('what each record says: the man page summary as description, tags from YAML (strings only, trimmed)', async () => {
    const kb = await open(tempWorkspace('kb-export-', FILES, CONFIG));
    const records = new Map((await all(kb)).flatMap((i) => (i.kind === 'subject' ? [[i.record.slug, i.record]] : [])));
    expect(records.get('ls')).toMatchObject({ description: 'list directory contents', tags: [] });
    expect(records.get('yaml')).toMatchObject({ description: 'Two\nlines\n', tags: ['x', 'y'], title: null });
    expect(records.get('skill')).toMatchObject({ title: 'skill', description: 'Does a thing', size: FILES['t/skill/SKILL.md'].length });
  });

  test('records come one at a time: a file removed after the first is read is said to be unreadable', async () => {
    const root = tempWorkspace('kb-export-', { 't/a.md': 'a\n', 't/b.md': 'b\n', 't/c.md': 'c\n' }, '[kb.topic.t]\nsubjects = "t"\n');
    const kb = await open(root);
    const gen = exportSubjects(kb, kb.topics);
    const first = await gen.next();
    expect(first.value).toMatchObject({ kind: 'subject', record: { slug: 'a' } });
    rmSync(join(root, 't', 'b.md'));
    const rest: ExportItem[] = [];
    for await (const item of gen) rest.push(item);
    expect(rest[0]).toMatchObject({ kind: 'skipped', slug: 'b', why: 'unreadable', path: 't/b.md' });
    expect(rest.at(-1)).toMatchObject({ kind: 'summary', summary: { exported: 2, unreadable: 1 } });
  });

  test('topics: none named is every enabled one; unknown and disabled ones are errors', async () => {
    const kb = await open(tempWorkspace('kb-export-', { 'a/x.md': 'x', 'b/y.md': 'y' }, '[kb.topic.a]\nsubjects = "a"\ntitle = "Alpha"\n\n[kb.topic.b]\nsubjects = "b"\nenable = false\n'));
    expect(exportTopics(kb, [])).toEqual({ topics: [kb.topics[0]] });
    expect(exportTopics(kb, ['Alpha', 'a'])).toEqual({ topics: [kb.topics[0]] });
    expect(exportTopics(kb, ['b'])).toEqual({ error: 'topic "b" is disabled' });
    expect(exportTopics(kb, ['c'])).toEqual({ error: 'unknown topic "c"; the topics are a, b' });
  });
});
