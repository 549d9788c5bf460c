// The configuration a long-lived front end shares among the requests that
// waited together (app/knowledge-base.ts ConfigShare): a request takes the
// last load only when that load began after the request arrived, so an edit
// made before a request arrived is always in its configuration.
import { describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigShare } from '../../../src/app/knowledge-base.ts';
import { makeTempDir, tempWorkspace } from '../../support/temp.ts';

const root = tempWorkspace('kb-config-share-', { 'notes/a.md': 'a\n' }, '[kb.topic.notes]\nsubjects = "notes"\ntitle = "One"\n');
const options = { cwd: root, cfg: [], knowledge: [], env: {}, home: makeTempDir('kb-config-share-home-') };
const title = async (share: ConfigShare, since: number | undefined, opts = options) => (await share.load(opts, since)).topics.map((t) => `${t.id}: ${t.title ?? ''}`);

describe('ConfigShare', () => {
  test('a load begun after a request arrived answers it; an edit before a request arrived is in its configuration', async () => {
    const share = new ConfigShare();
    const arrived = performance.now();
    expect(await title(share, arrived)).toEqual(['notes: One']);
    expect(await title(share, arrived)).toEqual(['notes: One']);
    expect(share.shared).toBe(1);
    writeFileSync(join(root, '.jp/config.toml'), '[kb.topic.notes]\nsubjects = "notes"\ntitle = "Two"\n');
    // Arrived after the edit: loaded anew.
    expect(await title(share, performance.now())).toEqual(['notes: Two']);
    expect(share.shared).toBe(1);
    // Another -k: not the same configuration.
    const arrivedK = performance.now();
    await share.load(options, arrivedK);
    expect((await share.load({ ...options, knowledge: ['notes/a'] }, arrivedK)).topics[0].learned).toEqual(['a']);
    expect(share.shared).toBe(1);
    // No arrival time (a one-shot command): always loaded.
    await share.load(options, undefined);
    expect(share.shared).toBe(1);
  });
});
