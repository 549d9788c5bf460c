// The fixtures the view's tests share (view, listing and load tests):
// temporary topics, patterns compiled as the knowledge base compiles them,
// and items shown as short strings.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Topic } from '../../../src/config/types.ts';
import { makeTempDir } from '../../support/temp.ts';
import { engine } from '../../../src/glob/engine.ts';
import { compileWith } from '../../../src/glob/pattern.ts';
import type { CompiledPattern } from '../../../src/glob/index.ts';
import { formattedText } from '../../../src/kb/content/format.ts';
import { listable } from '../../../src/kb/index/listing.ts';
import { isRaw as isRawCompiled, loadPatterns as loadCompiled, type LoadItem, type ReadAs } from '../../../src/kb/index/load.ts';
import { openTopic as openSpec, type OpenOptions, type TopicView } from '../../../src/kb/index/view.ts';

export const READER_THREAD_URL = new URL('../../../src/reader-thread.ts', import.meta.url).href;

/** Patterns compiled as the knowledge base compiles them (synchronously:
 *  the glob machinery is imported here). */
export const compile = (patterns: readonly string[]): CompiledPattern[] => compileWith(patterns, engine);

/** A view of a configured topic, its `learned` patterns compiled. */
export function openTopic(t: Topic, opts: Omit<OpenOptions, 'learned'> = {}): TopicView {
  return openSpec(t, { ...opts, learned: compile(t.learned) });
}

/** `loadPatterns` with patterns as a model sends them; bodies read as text
 *  unless `as` says otherwise. */
export function loadPatterns(view: TopicView, patterns: string[], as: ReadAs = 'text'): Generator<LoadItem> {
  return loadCompiled(view, compile(patterns), as);
}

export const isRaw = (view: TopicView, patterns: string[]) => isRawCompiled(view, compile(patterns));

export const BIN = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]);

export function tree(spec: Record<string, string | Uint8Array>): string {
  // Removed after the whole run (a module-level afterAll here ran after the
  // first test file that imports this module only: every other one's trees
  // were left in the temp folder).
  const root = makeTempDir('kb-topic-');
  for (const [rel, v] of Object.entries(spec)) {
    const abs = join(root, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, v);
  }
  return root;
}

export function topic(dir: string, learned: string[] = [], disabled: string[] = []): Topic {
  return { id: 'project', enable: true, subjects: 'kb', subjectsDir: dir, learned, disabled, sources: {} };
}

export const project = () =>
  tree({
    'maintainers/jean.md': 'Jean\n',
    'maintainers/ryan.md': 'Ryan\n',
    'code-quality.md': 'Quality\n',
    '.internal-notes.md': 'Internal\n',
  });

/** Items as short strings for table-like assertions (the formatted content
 *  as one string). Each item is shown as it comes: a bytes body is only
 *  valid until the next file is read. */
export function show(items: Iterable<LoadItem>): string[] {
  const out: string[] = [];
  for (const i of items) {
    switch (i.kind) {
      case 'subject':
        out.push(`subject ${i.slug}: ${JSON.stringify(formattedText(i.content))}${i.replaced ? ' (replaced)' : ''}`);
        break;
      case 'no-match':
      case 'invalid-pattern':
        out.push(`${i.kind} ${i.pattern}`);
        break;
      default:
        out.push(`${i.kind} ${i.slug}`);
    }
  }
  return out;
}
export const slugs = (view: TopicView) => listable(view).map((s) => s.slug);
