// HTML pages read as text, and lines of markup alone, on fixtures shaped
// like three folders people point kb at: git's documentation built as HTML
// by Asciidoctor (man pages with a 29 KB style sheet in each head), a Hugo
// docs site (front matter, shortcodes, includes, `_index.md`), and an Org
// wiki (`#+OPTIONS`, `#+STARTUP`, property drawers). Search, snippets,
// recall, titles and descriptions read a page's text; `learn` shows it as
// written unless `--html text` or KB_HTML=text says otherwise, and then
// says so in the model's text. Run on the compiled binary and under deno.
import { describe, expect } from 'bun:test';
import { caseTest, fixture, run, type Runner } from './harness.ts';

/** An Asciidoctor style sheet's shape: 29 KB of rules, some naming
 *  `user-select` and `.exampleblock>.content>:last-child` as the real one. */
const STYLE = `/*! Asciidoctor default stylesheet | MIT License | https://asciidoctor.org */\n${'html{font-family:sans-serif;-webkit-user-select:none;user-select:none}\n.exampleblock>.content>:last-child{margin-bottom:0}\n'.repeat(260)}`;

/** An HTML man page as Asciidoctor writes it. */
function manPage(name: string, purpose: string, description: string, options: [string, string][]): string {
  const dl = options.map(([o, d]) => `<dt class="hdlist1"><code>${o}</code></dt>\n<dd>\n<p>${d}</p>\n</dd>`).join('\n');
  return `<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" lang="en">
<head>
<meta charset="UTF-8"/>
<meta name="generator" content="Asciidoctor 2.0.26"/>
<title>${name}(1)</title>
<link rel="stylesheet" href="https://fonts.googleapis.com/css?family=Open+Sans"/>
<style>
${STYLE}</style>
</head>
<body class="manpage">
<div id="header">
<h1>${name}(1) Manual Page</h1>
<h2 id="_name">NAME</h2>
<div class="sectionbody">
<p>${name} - ${purpose}</p>
</div>
</div>
<div id="content">
<div class="sect1">
<h2 id="_synopsis">SYNOPSIS</h2>
<div class="sectionbody">
<div class="verseblock">
<pre class="content"><code>git</code> <code>${name.slice(4)}</code> [<em>&lt;options&gt;</em>]</pre>
</div>
</div>
</div>
<div class="sect1">
<h2 id="_description">DESCRIPTION</h2>
<div class="sectionbody">
<div class="paragraph">
<p>${description}</p>
</div>
</div>
</div>
<div class="sect1">
<h2 id="_options">OPTIONS</h2>
<div class="sectionbody">
<div class="dlist">
<dl>
${dl}
</dl>
</div>
</div>
</div>
</div>
<div id="footer">
<div id="footer-text">
Last updated 2025-06-01 10:00:00 UTC
</div>
</div>
</body>
</html>
`;
}

/** git's documentation as HTML, a Hugo site and an Org wiki. */
function workspace(): string {
  return fixture(
    {
      'gitdocs/git-add.html': manPage('git-add', 'Add file contents to the index', 'This command updates the index using the current content found in the working tree, to prepare the content staged for the next commit.', [
        ['-n', 'Don&#8217;t actually add the file(s), just show if they exist.'],
        ['-v', 'Be verbose.'],
      ]),
      'gitdocs/git-config.html': manPage('git-config', 'Get and set repository or global options', 'You can query, set, replace and unset options. Set your name and email with <code>git</code> <code>config</code> <code>--global</code> <code>user.email</code> &quot;you@example.com&quot;.', [['--global', 'Write to the global ~/.gitconfig file.']]),
      'gitdocs/git-reset.html': manPage('git-reset', 'Reset current HEAD to the specified state', 'Undo the last commit and keep its changes: <code>git reset HEAD~</code>.', [['--hard', 'Resets the index and working tree.']]),
      'gitdocs/user-manual.html': `<html><head><title>Git User Manual</title><style>${STYLE}</style></head><body><h1>Git User Manual</h1><p>Git is a fast distributed revision control system.</p></body></html>\n`,
      'site/_index.md': '---\ntitle: Hugo Documentation\n---\n\n{{% include "/_common/intro.md" %}}\n\nHugo is a static site generator.\n',
      'site/functions/images/Brightness.md': '---\ntitle: images.Brightness\ndescription: Returns an image filter that changes the brightness of an image.\n---\n\nThe percentage must be in the range [-100, 100].\n\n{{% include "/_common/functions/images/apply-image-filter.md" %}}\n\n## Example\n\n{{< img\n  src="images/examples/zion.jpg"\n  filter="Brightness"\n>}}\n',
      'site/functions/images/Contrast.md': '---\ntitle: "{{< param title >}}"\ndescription: "{{% include \\"x.md\\" %}}"\n---\n\n# {{< param "linkTitle" >}}\n\n{{< new-in 0.153.0 />}}\n\nChanges the contrast of an image.\n',
      'site/_common/functions/images/apply-image-filter.md': '---\n_comment: Do not remove front matter.\n---\n\nApply the filter using the images.Filter function.\n',
      'worg/index.org': '#+title:      Hello Worg, the Org-Mode Community!\n#+startup:    align fold nodlcheck hidestars oddeven intestate\n#+options:    H:3 num:nil toc:t \\n:nil ::t |:t ^:t -:t f:t *:t tex:t d:(HIDE) tags:not-in-toc\n\n* Worg documentation on your machine\n:PROPERTIES:\n:CUSTOM_ID: toc-options\n:END:\n\nDownload Worg files to read the toc options offline.\n',
      'worg/org-tutorials/agenda.org': '#+OPTIONS: H:3 num:nil toc:t\n#+STARTUP: align fold\n\nThe agenda collects your tasks.\n',
    },
    '[kb.topic.gitdocs]\nsubjects = "gitdocs"\n\n[kb.topic.site]\nsubjects = "site"\n\n[kb.topic.worg]\nsubjects = "worg"\n',
  );
}

const NOTE_LEARN = '[HTML page shown as text: tags, styles and scripts left out; kb --html raw (or KB_HTML=raw) shows it as written]\n';
const NOTE_RECALL = '[HTML page shown as text: tags, styles and scripts left out; the learn tool loads it as written]\n';

export function cases(runner: Runner): void {
  const test = caseTest(runner);
  describe(`HTML pages and markup lines (${runner.name})`, () => {
    const root = workspace();

    test.parity('a listing of HTML man pages shows each NAME line as the description', () => {
      const r = run(runner, root, ['learn', 'gitdocs']);
      expect(r).toMatchObject({ code: 0, err: '' });
      expect(r.out).toContain('- git-add: Add file contents to the index\n- git-config: Get and set repository or global options\n- git-reset: Reset current HEAD to the specified state\n- user-manual: Git User Manual\n');
    });

    test.parity('learn shows a page as written by default; --html text or KB_HTML=text as its text, saying so', () => {
      const raw = run(runner, root, ['learn', 'gitdocs', 'git-add']);
      expect(raw.code).toBe(0);
      expect(raw.out.startsWith('```html\n<!DOCTYPE html>')).toBe(true);
      expect(raw.out).toContain('user-select:none');
      const text = run(runner, root, ['learn', 'gitdocs', 'git-add', '--html', 'text']);
      expect(text).toMatchObject({ code: 0, err: '' });
      expect(text.out).toBe(
        `${NOTE_LEARN}# git-add(1) Manual Page\n\n## NAME\n\ngit-add - Add file contents to the index\n\n## SYNOPSIS\n\n\`\`\`\ngit add [<options>]\n\`\`\`\n\n## DESCRIPTION\n\nThis command updates the index using the current content found in the working tree, to prepare the content staged for the next commit.\n\n## OPTIONS\n\n-n\n  Don\u2019t actually add the file(s), just show if they exist.\n-v\n  Be verbose.\n\nLast updated 2025-06-01 10:00:00 UTC\n`,
      );
      expect(text.out.length * 4).toBeLessThan(raw.out.length);
      expect(run(runner, root, ['learn', 'gitdocs', 'git-add'], { env: { KB_HTML: 'text' } }).out).toBe(text.out);
      // The flag wins over the environment.
      expect(run(runner, root, ['learn', 'gitdocs', 'git-add', '--html', 'raw'], { env: { KB_HTML: 'text' } }).out).toBe(raw.out);
    });

    test('in blocks and windows, each page carries the note; other formats are as they were', () => {
      const blocks = run(runner, root, ['learn', 'gitdocs', 'git-*', '--html', 'text']);
      expect(blocks.out.split(NOTE_LEARN).length - 1).toBe(3);
      expect(blocks.out).toContain(`<subject "git-reset">\n${NOTE_LEARN}# git-reset(1) Manual Page\n`);
      expect(blocks.out).not.toContain('<style');
      const windowed = run(runner, root, ['learn', 'gitdocs', 'git-config', '--html', 'text', '--max-tokens', '60']);
      expect(windowed.out).toStartWith(`<subject "git-config">\n${NOTE_LEARN}# git-config(1) Manual Page\n`);
      expect(windowed.out).not.toContain('```html');
      expect(windowed.err).toContain('larger than the 60-token budget');
      expect(run(runner, root, ['learn', 'site', 'functions/images/Brightness', '--html', 'text']).out).toBe(run(runner, root, ['learn', 'site', 'functions/images/Brightness']).out);
    });

    test('a page without text outside its markup: the model and the user are told, the page as written is one flag away', () => {
      const app = fixture({ 'd/app.html': '<html><head><script>render(document.body)</script></head><body><div id="app"></div></body></html>\n' }, '[kb.topic.d]\nsubjects = "d"\n');
      const r = run(runner, app, ['learn', 'd', 'app', '--html', 'text']);
      expect(r).toMatchObject({ code: 0, out: '[HTML page shown as text: it has no text outside its tags, styles and scripts; kb --html raw (or KB_HTML=raw) shows it as written]\n' });
      expect(r.err).toBe('warning: learn d: HTML page "app" has no text outside its tags, styles and scripts; shown as text it is empty (--html raw or KB_HTML=raw shows it as written)\n');
      const raw = run(runner, app, ['learn', 'd', 'app']);
      expect(raw).toMatchObject({ code: 0, err: '' });
      expect(raw.out).toContain('render(document.body)');
    });

    test('a view that is neither raw nor text is a usage error', () => {
      const flag = run(runner, root, ['learn', 'gitdocs', 'git-add', '--html', 'plain']);
      expect(flag).toMatchObject({ code: 2, out: '' });
      expect(flag.err).toStartWith('error: invalid --html: "plain" is not raw or text (--html)\n');
      const env = run(runner, root, ['learn', 'gitdocs', 'git-add'], { env: { KB_HTML: 'yes' } });
      expect(env).toMatchObject({ code: 2, out: '' });
      expect(env.err).toStartWith('error: invalid KB_HTML: "yes" is not raw or text (KB_HTML)\n');
    });

    test.parity('search reads a page\'s text: its style sheet matches nothing, its snippets are its words', () => {
      const css = run(runner, root, ['search', 'user-select', '--topic', 'gitdocs']);
      expect(css.out).toContain('[No subject has the words "select", "user-select".]');
      expect(css.out).not.toContain('git-add');
      const email = run(runner, root, ['search', 'user.email', '--topic', 'gitdocs']);
      expect(email.out).toContain('. gitdocs: git-config (');
      expect(email.out).toMatch(/\n   > \d+: You can query, set, replace and unset options\. Set your name and email with git config --global user\.email "you@example\.com"\.\n/);
      expect(email.out).not.toContain('git-add');
      expect(email.out).not.toContain('git-reset');
      const undo = run(runner, root, ['search', 'undo the last commit', '--topic', 'gitdocs']);
      expect(undo.out).toContain('1. gitdocs: git-reset (');
      expect(undo.out).not.toContain('exampleblock');
    });

    test.parity("a page's passages are numbered by the page as written, the lines `learn slug:N-M` loads; by its text in the text view", () => {
      const n = (args: string[]) => Number(/\n   > (\d+): You can query/.exec(run(runner, root, ['search', 'user.email', '--topic', 'gitdocs', ...args]).out)?.[1]);
      // As written: the line of the page that holds the paragraph.
      const raw = n([]);
      const line = run(runner, root, ['learn', 'gitdocs', `git-config:${raw}`]);
      expect(line.code).toBe(0);
      expect(line.out).toContain('<p>You can query, set, replace and unset options.');
      // The text view: the line of the text learn then shows.
      const text = n(['--html', 'text']);
      expect(text).toBeLessThan(raw);
      expect(run(runner, root, ['learn', 'gitdocs', `git-config:${text}`, '--html', 'text']).out).toContain('You can query, set, replace and unset options.');
      expect(n([])).toBe(raw);
    });

    test('a search result\'s tokens are what learn gives in the view set', () => {
      const tokens = (args: string[], env: Record<string, string> = {}) => Number(/git-add \(~([\d,]+) tokens\)/.exec(run(runner, root, ['search', 'index', ...args], { env }).out)?.[1].replace(/,/g, ''));
      const raw = tokens([]);
      const text = tokens(['--html', 'text']);
      expect(text).toBeGreaterThan(50);
      expect(text * 5).toBeLessThan(raw);
      expect(tokens([], { KB_HTML: 'text' })).toBe(text);
    });

    test('recall packs a page\'s text, saying which view learn gives', () => {
      const r = run(runner, root, ['recall', 'set my name and email in the global config']);
      expect(r.code).toBe(0);
      expect(r.out).toContain(`<subject "git-config">\n${NOTE_RECALL}# git-config(1) Manual Page\n`);
      expect(r.out).not.toContain('user-select');
      expect(r.out).not.toContain('```html');
      expect(run(runner, root, ['recall', 'set my name and email in the global config', '--html', 'text']).out).toContain(`<subject "git-config">\n${NOTE_LEARN}`);
    });

    test.parity('a Hugo site: shortcodes and includes are never a snippet, a title or a description; loading shows them', () => {
      // The include line holds all three words, the frontmatter's description
      // two and a shortcode's attribute line one: markup all, never a snippet.
      const r = run(runner, root, ['search', 'apply image filter', '--topic', 'site']);
      expect(r.out).toContain('functions/images/Brightness (');
      expect(r.out).not.toMatch(/> .*\{\{[<%]/);
      expect(r.out).not.toMatch(/> \d+: (description:|src=|filter=)/);
      expect(r.out).toContain('   Returns an image filter that changes the brightness of an image.\n   > 6: The percentage must be in the range [-100, 100].\n');
      const listing = run(runner, root, ['learn', 'site', 'functions/']);
      expect(listing.out).toContain('- functions/images/Brightness: Returns an image filter that changes the brightness of an image.\n- functions/images/Contrast\n');
      expect(run(runner, root, ['learn', 'site', 'functions/images/Brightness']).out).toContain('{{% include "/_common/functions/images/apply-image-filter.md" %}}\n');
    });

    test.parity('an Org wiki: #+OPTIONS and #+STARTUP lines and property drawers are never a snippet', () => {
      const r = run(runner, root, ['search', 'toc options', '--topic', 'worg']);
      expect(r.out).toContain('1. worg: index (');
      expect(r.out).toMatch(/\n   > \d+: Download Worg files to read the toc options offline\.\n/);
      const agenda = run(runner, root, ['search', 'align fold', '--topic', 'worg']);
      expect(agenda.out).toMatch(/\n   > \d+: The agenda collects your tasks\.\n/);
      expect(agenda.out).not.toMatch(/> (\d+: )?[#:]/);
      expect(run(runner, root, ['learn', 'worg', 'index']).out).toStartWith('```org\n#+title:');
    });

    test('kb mcp: --html text and KB_HTML=text give the learn tool the text view', () => {
      const lines =
        [
          { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
          { jsonrpc: '2.0', method: 'notifications/initialized' },
          { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'learn', arguments: { topic: 'gitdocs', subjects: ['git-add'] } } },
        ]
          .map((l) => JSON.stringify(l))
          .join('\n') + '\n';
      const answer = (argv: string[], env: Record<string, string> = {}) => {
        const r = run(runner, root, ['mcp', ...argv], { input: lines, env });
        expect(r.code).toBe(0);
        return JSON.parse(r.out.trim().split('\n')[1]).result.content[0].text as string;
      };
      const text = run(runner, root, ['learn', 'gitdocs', 'git-add', '--html', 'text']).out;
      expect(answer(['--html', 'text'])).toBe(text);
      expect(answer([], { KB_HTML: 'text' })).toBe(text);
      expect(answer([])).toStartWith('```html\n');
    });
  });
}
