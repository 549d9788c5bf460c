// kb search, kb schema --tool search and kb recall on the binary and under
// deno: what a user sees, the exit codes, and the index cache (in the
// fixture's XDG_CACHE_HOME: tests/e2e/harness.ts) staying right through
// edits, additions, deletions and renames.
import { describe, expect } from 'bun:test';
import { chmodSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { caseTest, fixture, run, type Runner } from './harness.ts';

const CONFIG = `[kb.topic.docs]
title = "Project docs"
subjects = "docs"
disabled = ["old"]

[kb.topic.notes]
subjects = "notes"
`;

const FILES: Record<string, string | Uint8Array> = {
  'docs/release.md': '---\ndescription: How releases are tagged and published\n---\n# Releasing\n\nBump the version, tag the release, push the tag.\n',
  'docs/style.md': '# Style\n\nFormatting and naming rules for code review.\n',
  'docs/old.md': 'The old release process, disabled.\n',
  'docs/.secret.md': 'The release signing key lives here.\n',
  'docs/sub/deploy.txt': 'Deploy after the release is tagged.\n',
  'docs/logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 1, 2, 3]),
  'notes/meeting.txt': 'We agreed to tag every release on Fridays.\n',
};

/** Ages every file and directory below `dir`: a directory changed while
 *  an index was built is not trusted, and in a test everything is new. */
function age(dir: string, seconds = 60): void {
  const t = new Date(Date.now() - seconds * 1000);
  utimesSync(dir, t, t);
  if (statSync(dir).isDirectory()) for (const e of readdirSync(dir)) age(join(dir, e), seconds);
}

const slugs = (out: string) => [...out.matchAll(/^\d+\. (\S+): (\S+) \(/gm)].map((m) => `${m[1]}:${m[2]}`);
const cacheFiles = (root: string) => readdirSync(join(root, '.xdg-cache', 'kb', 'search'));

export function cases(runner: Runner): void {
  const test = caseTest(runner);
  describe(`kb search (${runner.name})`, () => {
    test.parity("an identifier's words joined by underscores find the page that names it before the pages of its common words", () => {
      const root = fixture(
        {
          'docs/server.rst': 'Development Server\n==================\n\nThe development server serves the app by name. Run the server, name the host, restart the server.\n',
          'docs/deploy.rst': 'Deploying\n=========\n\nA server name is bought from a registrar; point the server at the name servers.\n',
          'docs/config.rst': 'Configuration\n=============\n\nKeys the application reads.\n\nSet SERVER_NAME to the host and port the app answers on.\n',
        },
        '[kb.topic.docs]\nsubjects = "docs"\n',
      );
      const r = run(runner, root, ['search', 'SERVER_NAME']);
      expect(r.code).toBe(0);
      expect(slugs(r.out)[0]).toBe('docs:config');
      expect(r.out).toContain('   > 6: Set SERVER_NAME to the host and port the app answers on.\n');
    });

    test.parity('a word broken by soft hyphens (`&shy;`, as German docs write long words) is one word to find', () => {
      const root = fixture(
        { 'de/reference/configuration.mdx': '---\ntitle: Konfiguration\n---\n\nAlle Konfigurations&shy;optionen der Integration.\n', 'de/guide.md': 'Eine Anleitung.\n' },
        '[kb.topic.de]\nsubjects = "de"\n',
      );
      const r = run(runner, root, ['search', 'Konfigurationsoptionen']);
      expect(r.code).toBe(0);
      expect(slugs(r.out)).toEqual(['de:reference/configuration']);
      expect(r.out).toContain('   > 5: Alle Konfigurationsoptionen der Integration.\n');
    });

    test.parity("--tag reads an Org file's #+filetags:, as org-roam writes them", () => {
      const root = fixture(
        {
          'org/reading.org': ':PROPERTIES:\n:ID:       0e3f18c0\n:END:\n#+title: Reading list\n#+filetags: :books:\n\nBooks to read this year.\n',
          'org/ear.org': '#+title: Ear Training\n#+filetags: :music:\n\nTrain the ear to hear intervals; read about it in books.\n',
        },
        '[kb.topic.org]\nsubjects = "org"\n',
      );
      const r = run(runner, root, ['search', '--tag', 'books', 'books']);
      expect(r.code).toBe(0);
      expect(slugs(r.out)).toEqual(['org:reading']);
    });

    test.parity('a query of words too common to search for says so, not that no subject has them', () => {
      const root = fixture({ 'pages/common/if.md': '# if\n\n> Performs conditional processing in shell scripts.\n', 'pages/common/tar.md': '# tar\n\n> Archiving utility.\n' }, '[kb.topic.pages]\nsubjects = "pages"\n');
      const r = run(runner, root, ['search', 'if']);
      expect(r.code).toBe(1);
      expect(r.out).toContain('["if" is a word too common to be searched for; a subject named so loads by its name with the `learn` tool.]');
      expect(r.out).not.toContain('No subject has the word');
      expect(run(runner, root, ['learn', 'pages', 'if']).out).toContain('<subject "common/if">');
      expect(run(runner, root, ['search', 'xylophone']).out).toContain('[No subject has the word "xylophone".]');
    });

    test.parity('a result of one token says `~1 token`', () => {
      const root = fixture({ 'notes/todo.md': 'tea\n', 'notes/list.md': 'tea: milk, eggs, bread and coffee for the week\n' }, '[kb.topic.notes]\nsubjects = "notes"\n');
      const r = run(runner, root, ['search', 'tea']);
      expect(r.code).toBe(0);
      expect(r.out).toContain(': todo (~1 token)\n');
      expect(r.out).toMatch(/: list \(~\d+ tokens\)\n/);
    });

    test.parity('ranked results for people and models; exit 0, or 1 when nothing matches', () => {
      const root = fixture(FILES, CONFIG);
      const r = run(runner, root, ['search', 'tag', 'release']);
      expect(r.code).toBe(0);
      expect(r.err).toBe('');
      expect(r.out).toStartWith('3 subjects match "tag release", best first. Load one with the `learn` tool (topic and slug as shown), or some of its lines (`slug:120-160`).\n\n1. docs: release (~');
      expect(slugs(r.out)).toEqual(['docs:release', 'docs:sub/deploy', 'notes:meeting']);
      expect(r.out).toContain('   How releases are tagged and published\n   > 6: Bump the version, tag the release, push the tag.\n');
      for (const gone of ['old', 'secret', 'logo']) expect(r.out).not.toContain(gone);
      const none = run(runner, root, ['search', 'xylophone']);
      expect(none).toEqual({ out: 'No subjects match "xylophone".\n\n[No subject has the word "xylophone".]\nTry other words, or list a topic with the `learn` tool.\n', err: '', code: 1 });
    });

    test.parity('--topic, --limit, --format json; --args as a model sends them, also on stdin', () => {
      const root = fixture(FILES, CONFIG);
      const one = run(runner, root, ['search', '-t', 'notes', 'tag']);
      expect(slugs(one.out)).toEqual(['notes:meeting']);
      const json = JSON.parse(run(runner, root, ['search', '--format', 'json', '--limit', '1', 'tag', 'release']).out);
      expect(json).toMatchObject({ query: 'tag release', total: 3, left_out: 0 });
      expect(json.results).toHaveLength(1);
      expect(json.results[0]).toMatchObject({ topic: 'docs', slug: 'release', description: 'How releases are tagged and published', snippet: 'Bump the version, tag the release, push the tag.' });
      expect(json.results[0].tokens).toBeGreaterThan(0);
      const args = '{"query":"tag release","topic":"docs","limit":2}';
      const viaArgs = run(runner, root, ['search', '--args', args]);
      expect(viaArgs.out).toBe(run(runner, root, ['search', '-t', 'docs', '-n', '2', 'tag', 'release']).out);
      expect(run(runner, root, ['search', '--args', '-'], { input: args }).out).toBe(viaArgs.out);
      const bad = run(runner, root, ['search', '--args', '{"query":""}']);
      expect(bad).toEqual({ out: 'Invalid arguments for `search`: "query" must not be empty. Expected {"query": string, "topic"?: string | null, "topics"?: string[] | null, "tags"?: string[] | null, "type"?: string | null, "status"?: string | null, "limit"?: integer | null}.\n', err: '', code: 1 });
      const unknown = run(runner, root, ['search', '-t', 'nope', 'tag']);
      expect(unknown.code).toBe(1);
      expect(unknown.out).toBe('Unknown topic "nope". Valid topics: docs (Project docs), notes.\n');
    });

    test.parity('titles of every format: shown where a listing shows them, a title field in JSON; not when they only repeat the slug', () => {
      const root = fixture(
        {
          'docs/ownership.md': '# What Is Ownership?\n\nEvery value has an owner; the owner ships it.\n',
          'docs/pep-0484.rst': 'PEP: 484\nTitle: Type Hints\nStatus: Final\n\nAbstract\n========\n\nA module that ships type hints.\n',
          'docs/manual.adoc': '// a comment\n= The Git User Manual\n\nGit ships snapshots.\n',
          'docs/jean.md': '# Jean\n\nJean ships the releases.\n',
          'docs/git-ship.adoc': 'git-ship(1)\n===========\n\nNAME\n----\ngit-ship - Send a build on its way\n\nSYNOPSIS\n--------\ngit ship\n',
          'docs/noted.md': '---\ndescription: The description wins\n---\n# A Title Too\n\nIt ships.\n',
          'docs/bell.md': '# Ring \u0007the \u001b[31mbell\n\nIt ships loudly.\n',
        },
        '[kb.topic.docs]\nsubjects = "docs"\n',
      );
      const r = run(runner, root, ['search', '-n', '20', 'ships']);
      expect(r.code).toBe(0);
      const about = (slug: string) => {
        const at = r.out.indexOf(`: ${slug} (~`);
        expect(at).toBeGreaterThan(0);
        const next = r.out.slice(r.out.indexOf('\n', at) + 1).split('\n')[0];
        return next.startsWith('   > ') ? undefined : next.slice(3);
      };
      expect(about('ownership')).toBe('What Is Ownership?');
      expect(about('pep-0484')).toBe('Type Hints');
      expect(about('manual')).toBe('The Git User Manual');
      expect(about('jean')).toBeUndefined();
      expect(about('git-ship')).toBe('Send a build on its way');
      expect(about('noted')).toBe('The description wins');
      expect(about('bell')).toBe('Ring \\u0007the \\u001b[31mbell');
      const json = JSON.parse(run(runner, root, ['search', '--format', 'json', '-n', '20', 'ships']).out);
      const bySlug = Object.fromEntries(json.results.map((x: { slug: string }) => [x.slug, x]));
      expect(bySlug.ownership.title).toBe('What Is Ownership?');
      expect(bySlug['pep-0484'].title).toBe('Type Hints');
      expect(bySlug.manual.title).toBe('The Git User Manual');
      expect(bySlug.noted).toMatchObject({ title: 'A Title Too', description: 'The description wins' });
      expect(bySlug['git-ship'].description).toBe('Send a build on its way');
      for (const slug of ['jean', 'git-ship']) expect(bySlug[slug]).not.toHaveProperty('title');
      expect(bySlug.bell.title).toBe('Ring \u0007the \u001b[31mbell');
      // From the cache, and carried over when another file changes.
      age(root);
      run(runner, root, ['search', 'ships']);
      writeFileSync(join(root, 'docs', 'jean.md'), '# Jean Ships\n\nJean ships the releases.\n');
      const again = JSON.parse(run(runner, root, ['search', '--format', 'json', '-n', '20', 'ships']).out);
      const titles = Object.fromEntries(again.results.map((x: { slug: string; title?: string }) => [x.slug, x.title]));
      expect(titles).toMatchObject({ ownership: 'What Is Ownership?', 'pep-0484': 'Type Hints', manual: 'The Git User Manual', jean: 'Jean Ships' });
      // The title field ranks: the words of a title find its subject first.
      expect(JSON.parse(run(runner, root, ['search', '--format', 'json', 'type', 'hints']).out).results[0].slug).toBe('pep-0484');
      expect(JSON.parse(run(runner, root, ['search', '--format', 'json', 'user', 'manual']).out).results[0].slug).toBe('manual');
      // Recall names the subjects it leaves out with their titles.
      const small = run(runner, root, ['recall', '--max-tokens', '60', 'type', 'hints', 'ships']);
      expect(small.out).toContain('docs: pep-0484 (Type Hints, ~');
    });

    test('usage errors exit 2', () => {
      const root = fixture(FILES, CONFIG);
      for (const [args, msg] of [
        [['search'], 'error: missing QUERY (or --args JSON)'],
        [['search', '--limit', '0', 'x'], 'error: invalid --limit 0: from 1 to 50'],
        [['search', '--limit', 'many', 'x'], 'error: invalid --limit "many"'],
        [['search', '--args', '{}', 'x'], 'error: --args cannot be combined with a QUERY'],
      ] as [string[], string][]) {
        const r = run(runner, root, args);
        expect([args, r.code, r.err.split('\n')[0]]).toEqual([args, 2, expect.stringContaining(msg)]);
      }
    });

    test('the budget: results left out are said to the model and on stderr', () => {
      const root = fixture(FILES, CONFIG);
      const r = run(runner, root, ['search', '--max-tokens', '80', 'tag', 'release']);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/\[\d+ more results? left out to stay within the 80-token budget;/);
      expect(r.err).toMatch(/^warning: search: \d+ results? left out to stay within 80 tokens; the model was told\n$/);
      expect(run(runner, root, ['search', 'tag'], { env: { KB_MAX_TOKENS: '80' } }).out).toBe(run(runner, root, ['search', '--max-tokens', '80', 'tag']).out);
    });

    test.parity('the cache: under XDG_CACHE_HOME, one file per topic; a hit next time; edits, additions, deletions and renames show at once', () => {
      const root = fixture(FILES, CONFIG);
      age(join(root, 'docs'));
      const status = (q: string[]) => {
        const r = run(runner, root, ['--verbose', 'search', '-t', 'docs', ...q]);
        return { slugs: slugs(r.out), index: /index (\w+) \(/.exec(r.err)?.[1] };
      };
      expect(status(['tag'])).toEqual({ slugs: ['docs:release', 'docs:sub/deploy'], index: 'built' });
      expect(cacheFiles(root)).toHaveLength(1);
      expect(status(['tag'])).toEqual({ slugs: ['docs:release', 'docs:sub/deploy'], index: 'hit' });
      // edit in place
      writeFileSync(join(root, 'docs/style.md'), '# Style\n\nTag names follow semver.\n');
      expect(status(['semver']).slugs).toEqual(['docs:style']);
      // add
      writeFileSync(join(root, 'docs/sub/new.md'), 'A brand new zeppelin.\n');
      expect(status(['zeppelin']).slugs).toEqual(['docs:sub/new']);
      // delete
      rmSync(join(root, 'docs/sub/deploy.txt'));
      expect(status(['deploy']).slugs).toEqual([]);
      // rename
      renameSync(join(root, 'docs/sub/new.md'), join(root, 'docs/airship.md'));
      expect(status(['zeppelin']).slugs).toEqual(['docs:airship']);
      age(join(root, 'docs'));
      status(['zeppelin']);
      expect(status(['zeppelin'])).toEqual({ slugs: ['docs:airship'], index: 'hit' });
    });

    test('a large topic: the reader thread shares the check of a cached index, and an edit anywhere in it shows at once', () => {
      const many: Record<string, string> = {};
      for (let i = 0; i < 1100; i++) many[`docs/d${String(i).padStart(4, '0')}/s${i}.md`] = `# Subject ${i}\n\nPlain words about topic number ${i}.\n`;
      const root = fixture(many, '[kb.topic.docs]\nsubjects = "docs"\n');
      age(join(root, 'docs'));
      const status = (q: string) => {
        const r = run(runner, root, ['--verbose', 'search', q]);
        // Where the machine has no core to spare, the main thread checks
        // every file and says why (kb/fs/probe-thread.ts busyFrom).
        const here = /reader thread: not started, no core to spare \(load average [\d.]+ on \d+ cores(?:, \d+ other tasks? running)?\): (\d+) files checked here/.exec(r.err)?.[1];
        return { slugs: slugs(r.out), index: /index (\w+) \(/.exec(r.err)?.[1], thread: here ?? /reader thread: checked \d+ of (\d+) files/.exec(r.err)?.[1] };
      };
      expect(status('plain').index).toBe('built');
      expect(status('plain')).toMatchObject({ index: 'hit', thread: '1100' });
      // Same size, a new mtime: the first, a middle and the last file.
      for (const i of [0, 549, 1099]) {
        const path = join(root, `docs/d${String(i).padStart(4, '0')}/s${i}.md`);
        writeFileSync(path, `# Subject ${i}\n\nZesty words about topic number ${i}.\n`.replace('Plain', ''));
        const r = status('zesty');
        expect(r.index).toBe('updated');
        expect(r.slugs).toContain(`docs:d${String(i).padStart(4, '0')}/s${i}`);
      }
      expect(status('zesty').slugs).toEqual(['docs:d0000/s0', 'docs:d0549/s549', 'docs:d1099/s1099']);
    });

    test('a corrupt or unwritable cache never fails a search; --no-cache writes nothing', () => {
      const root = fixture(FILES, CONFIG);
      const good = run(runner, root, ['search', 'tag']).out;
      for (const f of cacheFiles(root)) writeFileSync(join(root, '.xdg-cache/kb/search', f), 'garbage '.repeat(10));
      const corrupt = run(runner, root, ['search', 'tag']);
      expect(corrupt.out).toBe(good);
      expect(corrupt.err).toContain('could not be read (not a kb search index); rebuilt');
      expect(run(runner, root, ['search', 'tag']).err).toBe('');

      const other = fixture(FILES, CONFIG);
      writeFileSync(join(other, 'cache-file'), 'not a directory');
      const blocked = run(runner, other, ['search', 'tag'], { env: { XDG_CACHE_HOME: join(other, 'cache-file') } });
      expect(blocked.out).toBe(good);
      expect(blocked.err).toContain('the search cache could not be written');
      expect(blocked.code).toBe(0);

      const none = fixture(FILES, CONFIG);
      expect(run(runner, none, ['search', '--no-cache', 'tag']).out).toBe(good);
      expect(() => statSync(join(none, '.xdg-cache', 'kb'))).toThrow();
    });

    test('a read-only cache directory: the search answers from memory', () => {
      if (process.getuid?.() === 0) return; // root writes anyway
      const root = fixture(FILES, CONFIG);
      const dir = join(root, '.xdg-cache', 'kb', 'search');
      mkdirSync(dir, { recursive: true });
      chmodSync(dir, 0o500);
      try {
        const r = run(runner, root, ['search', 'tag']);
        expect(r.code).toBe(0);
        expect(slugs(r.out)).toHaveLength(3);
        expect(r.err).toContain('the search cache could not be written');
      } finally {
        chmodSync(dir, 0o700);
      }
    });
  });

  describe(`kb schema --tool search (${runner.name})`, () => {
    test('the search tool in every format; kb schema alone is still learn', () => {
      const root = fixture(FILES, CONFIG);
      const generic = JSON.parse(run(runner, root, ['schema', '--tool', 'search']).out);
      expect(generic.name).toBe('search');
      expect(generic.parameters.required).toEqual(['query']);
      expect(generic.description).toContain('Topics:\n- docs (Project docs)\n- notes');
      expect(JSON.parse(run(runner, root, ['schema']).out).name).toBe('learn');
      const openai = JSON.parse(run(runner, root, ['schema', '--tool', 'search', '--format', 'openai']).out);
      expect(openai.function.strict).toBe(true);
      expect(openai.function.parameters.required).toEqual(['query', 'topic', 'topics', 'tags', 'type', 'status', 'limit']);
      expect(JSON.parse(run(runner, root, ['schema', '--tool', 'search', '--format', 'anthropic']).out).input_schema).toEqual(generic.parameters);
      expect(JSON.parse(run(runner, root, ['schema', '--tool', 'search', '--format', 'gemini']).out).name).toBe('search');
      expect(run(runner, fixture({}, ''), ['schema', '--tool', 'search'])).toEqual({ out: '', err: '', code: 0 });
    });
  });

  describe(`kb search in languages written without spaces (${runner.name})`, () => {
    const TEXTS: Record<string, string> = {
      'notes/auth.md': '# 认证\n\n本系统使用令牌进行用户认证。\n',
      'notes/config.md': '# 設定\n\nはじめに。\n設定ファイルで接続文字列を指定します。\n',
      'notes/tar.md': '# tar\n\n用 tar -xf 解压 tar 文件。\n',
      'notes/thai.md': 'ภาษาไทยไม่มีช่องว่างระหว่างคำ\n',
      'notes/english.md': 'Nothing but English here, about tokens and files.\n',
    };
    test.parity('a word inside a run of Chinese, Japanese or Thai text is found, and its line is the snippet', () => {
      const root = fixture(TEXTS, '[kb.topic.notes]\nsubjects = "notes"\n');
      const auth = run(runner, root, ['search', '认证']);
      expect(auth.code).toBe(0);
      expect(slugs(auth.out)).toEqual(['notes:auth']);
      const ja = JSON.parse(run(runner, root, ['search', '--format', 'json', '接続文字列']).out);
      // The line that answers, with the line of its block before it.
      expect(ja.results[0]).toMatchObject({ slug: 'config', snippet: 'はじめに。\n設定ファイルで接続文字列を指定します。', line: 3, passages: [{ line: 3, text: 'はじめに。\n設定ファイルで接続文字列を指定します。' }] });
      expect(slugs(run(runner, root, ['search', '怎么解压tar文件']).out)[0]).toBe('notes:tar');
      expect(slugs(run(runner, root, ['search', 'ช่องว่าง']).out)).toEqual(['notes:thai']);
      // A run none of whose pairs of characters is in any subject is named,
      // once, even where some of its characters are.
      const partial = run(runner, root, ['search', '认识']);
      expect(partial.out).toContain('[No subject has the word "认识".]');
      expect(run(runner, root, ['search', '数据库'])).toEqual({ out: 'No subjects match "数据库".\n\n[No subject has the word "数据库".]\nTry other words, or list a topic with the `learn` tool.\n', err: '', code: 1 });
    });

    test.parity('recall finds the same words, and keeps the section that holds them', () => {
      const long = `# 概要\n\n${'本文档介绍系统的其他部分。\n'.repeat(60)}\n# 认证\n\n本系统使用令牌进行用户认证。\n`;
      const root = fixture({ ...TEXTS, 'notes/guide.md': long }, '[kb.topic.notes]\nsubjects = "notes"\n');
      const r = run(runner, root, ['recall', '--max-tokens', '300', '-t', 'notes', '用户认证']);
      expect(r.out).toContain('<subject "guide">');
      expect(r.out).toContain('# 认证\n\n本系统使用令牌进行用户认证。');
      expect(r.out).not.toContain('本文档介绍系统的其他部分。\n'.repeat(3));
    });
  });

  describe(`kb recall (${runner.name})`, () => {
    test.parity('a <knowledge> block of the relevant subjects, within the budget; nothing when nothing is relevant', () => {
      const root = fixture(FILES, CONFIG);
      const r = run(runner, root, ['recall', 'how', 'do', 'we', 'tag', 'and', 'deploy', 'a', 'release?']);
      expect(r.code).toBe(0);
      // The relevant subjects of a topic, best first, in one block.
      expect(r.out).toStartWith('<knowledge>\nThe following knowledge was recalled from the knowledge base as relevant to this request:\n\n<topic "Project docs">\n<subject "sub/deploy">\nDeploy after the release is tagged.\n</subject>\n\n<subject "release">\n---\ndescription: How releases are tagged and published\n---\n# Releasing\n');
      expect(r.out).toContain('push the tag.\n</subject>\n</topic>\n');
      expect(run(runner, root, ['recall', '-t', 'notes', 'tag', 'release']).out).toContain('<topic "notes">\n<subject "meeting">\nWe agreed to tag every release on Fridays.\n</subject>\n</topic>\n');
      expect(r.out).toEndWith('</knowledge>\n');
      expect(run(runner, root, ['recall', '-'], { input: 'how do we tag and deploy a release?' }).out).toBe(r.out);
      expect(run(runner, root, ['recall', 'xylophone'])).toEqual({ out: '', err: '', code: 0 });
      const small = run(runner, root, ['recall', '--max-tokens', '80', 'tag', 'release']);
      expect(small.out).toContain('left out to stay within the 80-token budget');
      expect(small.err).toContain('warning: recall: ');
      const tiny = run(runner, root, ['recall', '--max-tokens', '20', 'tag', 'release']);
      expect(tiny).toEqual({ out: '', err: 'warning: recall: the 20-token budget is too small to name what was found; nothing printed\n', code: 0 });
      const json = JSON.parse(run(runner, root, ['recall', '--format', 'json', '-t', 'notes', 'tag']).out);
      expect(json.subjects).toEqual([expect.objectContaining({ topic: 'notes', slug: 'meeting' })]);
      expect(json.text).toContain('<subject "meeting">');
      expect(run(runner, root, ['recall', '-t', 'nope', 'x']).code).toBe(2);
    });
  });
}
