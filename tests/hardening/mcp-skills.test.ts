// Hostile skills and hostile URIs for the MCP Skills extension on dist/kb
// (docs/robustness.md, "MCP clients"): skills past the extension's limits,
// frontmatter JSON cannot carry, special files and links in a skill, URIs
// that climb out of a skill or are far too long, and a listing of skills
// whose files hold far more than a page may read.
import { describe, expect, test } from 'bun:test';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RawMcp } from '../support/mcp-raw.ts';
import { fixture } from '../e2e/harness.ts';

const skill = (name: string, extra = '') => `---\nname: ${name}\ndescription: The ${name} skill.\n${extra}---\nBody.\n`;

async function session<T>(root: string, body: (mcp: RawMcp) => Promise<T>): Promise<T> {
  const mcp = new RawMcp(root);
  try {
    await mcp.initialize('2025-11-25');
    return await body(mcp);
  } finally {
    await mcp.close();
  }
}

const uris = (r: { result: { skills: { uri: string }[] } }) => r.result.skills.map((s) => s.uri);

describe('the Skills extension against hostile skills', () => {
  test('past the limits (513 files; 17 MiB), or frontmatter JSON cannot carry: not served, said once on stderr, and skills/get says why', async () => {
    const files: Record<string, string | Uint8Array> = {
      'sk/ok/SKILL.md': skill('ok'),
      'sk/many/SKILL.md': skill('many'),
      'sk/big/SKILL.md': skill('big'),
      'sk/big/blob.bin': new Uint8Array(17 * 1024 * 1024),
      'sk/inf/SKILL.md': skill('inf', 'metadata:\n  size: .inf\n'),
      'sk/keys/SKILL.md': skill('keys', '? [a, b]\n: c\n'),
      'sk/deep/SKILL.md': skill('deep', `x: ${'['.repeat(40)}${']'.repeat(40)}\n`),
    };
    for (let i = 0; i < 512; i++) files[`sk/many/f${i}.md`] = 'x\n';
    const root = fixture(files, '[kb.topic.sk]\nsubjects = "sk"\n');
    await session(root, async (mcp) => {
      expect(uris(await mcp.request(1, 'skills/list', {}))).toEqual(['skill://sk/ok/SKILL.md']);
      const why = async (name: string) => (await mcp.request(`g-${name}`, 'skills/get', { uri: `skill://sk/${name}/SKILL.md` })).error;
      expect(await why('many')).toMatchObject({ code: -32602, message: 'No skill is served at skill://sk/many/SKILL.md: it has 513 files; the Skills extension serves at most 512 a skill' });
      expect((await why('big')).message).toContain('its files hold 17 MiB; the Skills extension serves at most 16 MiB a skill');
      expect((await why('inf')).message).toContain('field metadata.size is Infinity, which JSON cannot carry');
      expect((await why('keys')).message).toContain('has a key that is not a string');
      expect((await why('deep')).message).toContain('nests more than 32 levels deep');
      expect((await mcp.request(2, 'resources/read', { uri: 'skill://sk/big/blob.bin' })).error.code).toBe(-32002);
      expect(mcp.err.split('skill "many" is not served over MCP').length).toBe(2);
    });
  });

  test('a FIFO, a link loop and a dangling link in a skill are no files of it; a link to a file outside is read as the walk reads it', async () => {
    const root = fixture({ 'sk/s/SKILL.md': skill('s'), 'outside.txt': 'outside\n' }, '[kb.topic.sk]\nsubjects = "sk"\n');
    execFileSync('mkfifo', [join(root, 'sk/s/pipe')]);
    symlinkSync('.', join(root, 'sk/s/loop'));
    symlinkSync('nowhere', join(root, 'sk/s/dangling'));
    symlinkSync('../../outside.txt', join(root, 'sk/s/out.txt'));
    await session(root, async (mcp) => {
      const list = await mcp.request(1, 'skills/list', {});
      expect(list.result.skills[0].resources.map((r: { uri: string }) => r.uri)).toEqual(['skill://sk/s/SKILL.md', 'skill://sk/s/out.txt']);
      const read = await mcp.request(2, 'resources/read', { uri: 'skill://sk/s/out.txt' });
      expect(read.result.contents[0].text).toBe('outside\n');
      expect((await mcp.request(3, 'resources/read', { uri: 'skill://sk/s/pipe' })).error.code).toBe(-32002);
    });
  });

  test('URIs that climb out of a skill, name a folder, are encoded oddly or are over 8 KiB: not found, nothing read outside the skills', async () => {
    const root = fixture({ 'sk/s/SKILL.md': skill('s'), 'sk/s/a/b.md': 'b\n', 'sk/secret.md': 'secret\n', 'top.md': 'top\n' }, '[kb.topic.sk]\nsubjects = "sk"\n');
    await session(root, async (mcp) => {
      let id = 0;
      for (const uri of ['skill://sk/s/../secret.md', 'skill://sk/s/%2E%2E/secret.md', 'skill://sk/s/a', 'skill://sk/s/a/', 'skill://sk/s//a/b.md', 'skill://sk/s/a%2Fb.md', 'skill://sk/s/a/b.md?x', 'skill://sk/s/%ZZ', `skill://sk/s/${'x/'.repeat(5000)}b.md`, 'skill://sk/../top.md', 'skill://', 'skill:///']) {
        const r = await mcp.request(++id, 'resources/read', { uri });
        expect([uri.slice(0, 60), r.error?.code]).toEqual([uri.slice(0, 60), -32002]);
      }
      expect((await mcp.request(++id, 'resources/read', { uri: 'skill://sk/s/a/b.md' })).result.contents[0].text).toBe('b\n');
    });
  });

  test('a listing of skills holding 78 MiB reads at most about 64 MiB a page; the next listing reads none of the unchanged files again', async () => {
    const files: Record<string, string | Uint8Array> = {};
    const blob = new Uint8Array(13 * 1024 * 1024);
    for (let i = 0; i < 6; i++) {
      files[`sk/s${i}/SKILL.md`] = skill(`s${i}`);
      files[`sk/s${i}/data.bin`] = blob;
    }
    const root = fixture(files, '[kb.topic.sk]\nsubjects = "sk"\n');
    const old = new Date(Date.now() - 60_000);
    for (let i = 0; i < 6; i++) for (const f of ['SKILL.md', 'data.bin']) utimesSync(join(root, `sk/s${i}`, f), old, old);
    await session(root, async (mcp) => {
      const first = await mcp.request(1, 'skills/list', {});
      expect(first.result.skills.length).toBe(5);
      const second = await mcp.request(2, 'skills/list', { cursor: first.result.nextCursor });
      expect(uris(second)).toEqual(['skill://sk/s5/SKILL.md']);
      // Every digest is kept now: one page holds all six.
      const again = await mcp.request(3, 'skills/list', {});
      expect(again.result.skills.length).toBe(6);
      expect(again.result.nextCursor).toBeUndefined();
    });
  });

  test('a skill named in a SKILL.md that is not UTF-8 text is not served', async () => {
    const root = fixture({ 'sk/s/SKILL.md': Buffer.concat([Buffer.from(skill('s')), Buffer.from([0xff, 0xfe, 0x0a])]) }, '[kb.topic.sk]\nsubjects = "sk"\n');
    mkdirSync(join(root, 'sk/t'));
    writeFileSync(join(root, 'sk/t/SKILL.md'), skill('t'));
    await session(root, async (mcp) => {
      expect(uris(await mcp.request(1, 'skills/list', {}))).toEqual(['skill://sk/t/SKILL.md']);
      expect((await mcp.request(2, 'skills/get', { uri: 'skill://sk/s/SKILL.md' })).error.message).toContain('its SKILL.md is not UTF-8 text');
    });
  });
});
