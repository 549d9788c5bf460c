// The pieces of a skill's entry for the MCP Skills extension: the Agent
// Skills rules (kb/index/skill-rules.ts), frontmatter as JSON
// (kb/content/frontmatter-json.ts), a file's digest (kb/fs/digest.ts) and
// the skill:// URIs (mcp/skills.ts).
import { describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { loadYaml, NEEDS_YAML } from '../../../src/kb/content/frontmatter.ts';
import { frontmatterJson } from '../../../src/kb/content/frontmatter-json.ts';
import { mediaTypeOf } from '../../../src/kb/content/mime.ts';
import { digestFile, fileBytes, stampNow } from '../../../src/kb/fs/digest.ts';
import { skillProblems } from '../../../src/kb/index/skill-rules.ts';
import { parseSkillUri, skillUri } from '../../../src/mcp/skills.ts';
import { tempFiles } from '../../support/temp.ts';

describe('the Agent Skills rules', () => {
  test('name, description, compatibility and metadata, in kb check\'s words', () => {
    expect(skillProblems('pdf', { name: 'pdf', description: 'd' }, 'pdf')).toEqual([]);
    expect(skillProblems('t', { name: 'template-skill', description: 'd' }, 't')).toEqual(['skill "t": name "template-skill" differs from its directory\'s name "t"']);
    expect(skillProblems('x', { name: 'X', description: ' ' }, 'x')).toEqual([
      'skill "x": name "X" must be 1-64 characters of a-z, 0-9 and -, with no leading, trailing or doubled hyphen',
      'skill "x" has no description (a string of 1-1024 characters)',
    ]);
    expect(skillProblems('x', { name: 'x', description: 'd', compatibility: '' }, 'x')).toEqual(['skill "x": compatibility must be a string of 1-500 characters']);
    expect(skillProblems('x', { name: 'x', description: 'd', metadata: new Map([['v', 1]]) }, 'x')).toEqual(['skill "x": metadata must map strings to strings']);
    expect(skillProblems('x', { name: 'x', description: 'd', metadata: { v: '1' }, compatibility: 'Linux' }, 'x')).toEqual([]);
    expect(skillProblems('x', { name: 'x', description: 'd', metadata: [], compatibility: 5 }, 'x')).toEqual(['skill "x": compatibility must be a string of 1-500 characters', 'skill "x": metadata must map strings to strings']);
  });
});

describe('frontmatter as JSON', () => {
  test('plain lines without the parser; the rest as YAML 1.2 reads it, nested mappings as objects', async () => {
    expect(frontmatterJson('name: a\ndescription: b\n')).toEqual({ ok: true, data: { name: 'a', description: 'b' } });
    expect(frontmatterJson('name: a\nn: -1\n')).toBe(NEEDS_YAML);
    const lib = await loadYaml();
    expect(frontmatterJson('name: a\nn: 1\non: yes\nd: 2025-01-14\nm:\n  k: [1, "2"]\n', lib)).toEqual({ ok: true, data: { name: 'a', n: 1, on: 'yes', d: '2025-01-14', m: { k: [1, '2'] } } });
    const proto = frontmatterJson('__proto__: x\n');
    expect(proto !== NEEDS_YAML && proto.ok && Object.hasOwn(proto.data, '__proto__')).toBe(true);
  });

  test('what JSON cannot carry, and YAML that is not valid, say why', async () => {
    const lib = await loadYaml();
    const reason = (front: string) => {
      const r = frontmatterJson(front, lib);
      return r !== NEEDS_YAML && !r.ok ? r.reason : undefined;
    };
    expect(reason('a: .nan\n')).toBe('field a is NaN, which JSON cannot carry');
    expect(reason('1: a\n')).toBe('it has a key that is not a string (1)');
    expect(reason('a: [\n')).toStartWith('it is not valid YAML (');
    expect(reason('- a\n')).toBe('it is not a mapping of fields');
    expect(reason(`a: ${'['.repeat(40)}${']'.repeat(40)}\n`)).toBe('it nests more than 32 levels deep at line 1');
  });
});

describe('digests and bytes', () => {
  test('the SHA-256 of the raw bytes, their size, whether they are text; a file past the limit is an error', () => {
    const { file } = tempFiles('kb-digest-');
    const bytes = '\ufeffa\r\nb\n';
    const path = file(bytes);
    const d = digestFile(path, 1024, true);
    expect(d).toMatchObject({ kind: 'digest', digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}`, size: Buffer.byteLength(bytes), text: true });
    expect(d.kind === 'digest' && d.stamp === stampNow(path)).toBe(true);
    expect(digestFile(file(new Uint8Array([0x61, 0xff])), 1024, true)).toMatchObject({ text: false });
    expect(digestFile(file(new Uint8Array([0x61, 0, 0x62])), 1024, true)).toMatchObject({ text: false });
    expect(digestFile(file('x'.repeat(2000)), 1024)).toEqual({ kind: 'error', message: 'the file is more than 1.0 KiB; subjects larger than 1.0 KiB are not loaded' });
    const read = fileBytes(path, 1024);
    expect(read.kind === 'bytes' && Buffer.from(read.bytes).toString('utf8')).toBe(bytes);
    expect(fileBytes(file('x'.repeat(2000)), 1024).kind).toBe('error');
    appendFileSync(path, 'more');
    expect(stampNow(path)).not.toBe(d.kind === 'digest' ? d.stamp : '');
  });

  test('media types by extension, text or not for the rest', () => {
    expect(mediaTypeOf('scripts/a.py', true)).toBe('text/x-python');
    expect(mediaTypeOf('fonts/A.TTF', false)).toBe('font/ttf');
    expect(mediaTypeOf('Makefile', true)).toBe('text/plain');
    expect(mediaTypeOf('data.bin', false)).toBe('application/octet-stream');
  });
});

describe('skill:// URIs', () => {
  test('made with each component percent-encoded, and read back', () => {
    const uri = skillUri('my topic', '.claude/skills/ünï', 'a b/c#.md');
    expect(uri).toBe('skill://my%20topic/.claude/skills/%C3%BCn%C3%AF/a%20b/c%23.md');
    expect(parseSkillUri(uri)).toEqual({ topic: 'my topic', segments: ['.claude', 'skills', 'ünï', 'a b', 'c#.md'] });
  });

  test('none kb could have made: undefined', () => {
    for (const uri of ['kb://t/a', 'skill://t', 'skill://t/a', 'skill://t//a', 'skill://t/./a', 'skill://t/../a', 'skill://t/%2e%2e/a', 'skill://t/a%2Fb/c', 'skill://t/a/b?q', 'skill://t/a/b#f', 'skill://t/%E0/b', `skill://t/${'a/'.repeat(5000)}b`]) {
      expect([uri.slice(0, 30), parseSkillUri(uri)]).toEqual([uri.slice(0, 30), undefined]);
    }
  });
});
