// Site files beside documents (docs/reference/commands.md, "`kb init`"): a docs
// folder is often a website's source, and beside its pages sit the files
// that build and style the site: style sheets, scripts, templates, build
// and server configuration, and fragments that pages include. A model
// wants the pages; `kb init` names the rest in a commented `.kbignore`.
//
// Decided by what the folder holds, never by its name. The folder is a
// documents folder when its prose files (precedence.ts: Markdown, Org,
// reStructuredText, AsciiDoc, text, HTML, no extension) are at least half
// of its text files (media and other binary formats by extension apart);
// otherwise its files ARE its knowledge (a folder of JavaScript snippets,
// a code base) and nothing is left out. In a documents folder, each kind
// of site file is left out when the prose files outnumber it:
//
// - style sheets (`*.css`, `*.scss`...) and scripts (`*.js`, `*.ts`...,
//   and components: `*.vue`, `*.svelte`, `*.astro`), anywhere, by
//   extension;
// - templates (`*.gotmpl`, `*.njk`, `*.liquid`...), anywhere, by
//   extension, and template folders: a folder named as site generators
//   name theirs (`layouts`, `_layouts`, `_includes`, `partials`,
//   `shortcodes`, `templates`...) that holds no prose but HTML;
// - build and server configuration at the top of the folder, where sites
//   keep it: shell scripts and `*.conf` files, and files named as build
//   tools name theirs (`Makefile`, `netlify.toml`, `package.json`,
//   `hugo.toml`, `mkdocs.yml`...);
// - fragments: a folder whose index page (`_index.md`, `index.md`) says in
//   its front matter that its pages are neither rendered nor listed (Hugo's
//   headless bundle: `headless: true`, or `render: never` and `list: never`
//   under `build`, `_build` or `cascade`): its files are included by other
//   pages;
// - SVG images (`*.svg`), anywhere: icons and figures, pictures whose text
//   is drawing commands (a notes vault's `Attachments/icons/`), where the
//   other images are binary and never subjects. A folder of them alone (an
//   icon set) is no documents folder, and keeps them;
// - HTML pages built from the sources beside them (`git-add.html` beside
//   `git-add.txt`, as a repository of generated docs keeps both), where
//   they are most of the HTML pages (at least five, nine in ten, and at
//   most twenty others): `*.html`, then a `!` rule for each page that has
//   no source (it is the only copy of its text). Each pair shares a slug,
//   which `kb check` warns of page by page; the source, read first, stays;
// - translations: a folder named as a language (`de`, `zh-cn`, `pt-BR`)
//   whose pages are the pages of the folder it is in, or of the language
//   folder beside it that the others translate (`en`, else the largest),
//   by the same paths (at least three, and half of its files): a docs
//   site's translations,
//   which a search would otherwise answer with the same page in sixteen
//   languages. They count as documents; they are left out while at least
//   three pages are not translations.
//
// Hidden files are never listed anyway, and a skill's files belong to it:
// neither is counted. The survey reads the walk's names, and the first
// 8 KiB of each folder's index page.

import { probeFile } from '../fs/probe-titles.ts';
import { isProse } from './precedence.ts';
import type { SubjectIndex } from './types.ts';
import { CONTROL } from '../../shared/controls.ts';

/** A kind of site file, as the .kbignore names it. */
export type SiteKind = 'style sheets' | 'scripts' | 'templates' | 'build and server configuration' | 'fragments included by other pages' | 'SVG images' | 'HTML pages built from the sources beside them' | 'translations of these pages';

/** The files of one kind to leave out: the patterns that name them, how
 *  many there are, and the first (a path from the folder). */
export interface SiteGroup {
  kind: SiteKind;
  patterns: string[];
  files: number;
  example: string;
}

/** What a folder holds, as the survey sees it. */
export interface SiteSurvey {
  /** Prose files, and text files in all (media apart). */
  prose: number;
  text: number;
  /** The kinds to leave out, in the .kbignore's order; none when the
   *  folder is not a documents folder, or holds no site file. */
  groups: SiteGroup[];
  /** The walk stopped at its limit: the survey saw part of the folder. */
  partial: boolean;
}

const STYLE = new Set(['css', 'scss', 'sass', 'less', 'styl']);
const SCRIPT = new Set(['js', 'mjs', 'cjs', 'jsx', 'ts', 'mts', 'cts', 'tsx', 'coffee', 'vue', 'svelte', 'astro']);
const TEMPLATE = new Set(['gotmpl', 'tmpl', 'tpl', 'j2', 'jinja', 'jinja2', 'njk', 'hbs', 'handlebars', 'mustache', 'liquid', 'ejs', 'erb', 'twig', 'pug', 'haml', 'slim']);
const SHELL = new Set(['sh', 'bash', 'zsh', 'fish', 'ps1', 'bat', 'cmd']);
/** Configuration at the top of a site, by extension. */
const CONFIG_EXT = new Set(['conf', 'htaccess']);
/** Build and server configuration, by name (at the top of a site). */
const CONFIG_NAMES = new Set([
  'Makefile',
  'GNUmakefile',
  'Dockerfile',
  'Procfile',
  'Gemfile',
  'Rakefile',
  'Jenkinsfile',
  'Vagrantfile',
  'CNAME',
  'netlify.toml',
  'vercel.json',
  'firebase.json',
  'wrangler.toml',
  'package.json',
  'tsconfig.json',
  'jsconfig.json',
  'go.mod',
  'go.work',
  'hugo.toml',
  'hugo.yaml',
  'hugo.yml',
  'hugo.json',
  'hugo.work',
  '_config.yml',
  '_config.yaml',
  'mkdocs.yml',
  'mkdocs.yaml',
  'book.toml',
  'antora.yml',
  'antora-playbook.yml',
  'conf.py',
  'babel.config.js',
  'webpack.config.js',
  'postcss.config.js',
  'tailwind.config.js',
  'docusaurus.config.js',
  'docusaurus.config.ts',
]);
/** Folders site generators keep templates in. */
const TEMPLATE_DIRS = new Set(['layouts', '_layouts', '_includes', 'includes', 'partials', '_partials', 'shortcodes', '_shortcodes', 'templates', '_templates', '_sass']);
/** Media and other binary formats: neither prose nor site files. */
const MEDIA = new Set(
  'png jpg jpeg gif webp avif ico bmp tif tiff psd ai eps svgz heic pdf woff woff2 ttf otf eot zip gz tgz bz2 xz 7z tar rar jar war mp3 mp4 m4a wav ogg oga webm mov avi mkv flac class o a so dylib dll exe wasm pyc sqlite db'.split(' '),
);

/** The index pages whose front matter may make a folder one of fragments. */
const INDEX_PAGES = new Set(['_index.md', 'index.md', '_index.markdown', 'index.markdown']);

/** One file, as the survey sorts it. */
interface Found {
  path: string;
  ext: string;
}

/** Surveys an indexed folder (see the top of this file). */
export function surveySite(index: SubjectIndex): SiteSurvey {
  const files = visibleFiles(index);
  let prose = 0;
  let text = 0;
  const byKind = new Map<SiteKind, { patterns: Set<string>; files: number; example: string }>();
  const add = (kind: SiteKind, pattern: string, path: string) => {
    let g = byKind.get(kind);
    if (g === undefined) byKind.set(kind, (g = { patterns: new Set(), files: 0, example: path }));
    g.patterns.add(pattern);
    g.files++;
  };
  const fragments = fragmentDirs(index, files);
  const templateDirs = templateFolders(files);
  const built = builtPages(files);
  const translations = translationDirs(files);
  let translated = 0;
  for (const f of files) {
    if (MEDIA.has(f.ext)) continue;
    text++;
    if (built?.pages.has(f.path)) {
      add(BUILT, `*.${f.ext}`, f.path);
      continue;
    }
    const language = enclosing(f.path, translations);
    if (language !== undefined) {
      if (isProse(f.ext)) {
        prose++;
        translated++;
      }
      add(TRANSLATIONS, `/${escapeRule(language)}/`, f.path);
      continue;
    }
    const dir = enclosing(f.path, fragments) ?? enclosing(f.path, templateDirs);
    if (dir !== undefined) add(fragments.has(dir) ? 'fragments included by other pages' : 'templates', `/${escapeRule(dir)}/`, f.path);
    else if (isProse(f.ext) && !isConfigName(f)) prose++;
    else {
      const kind = kindOf(f);
      if (kind !== undefined) add(kind, rule(kind, f), f.path);
    }
  }
  const partial = index.notices.some((n) => n.code === 'walk-limit');
  if (prose * 2 < text) return { prose, text, groups: [], partial };
  const groups: SiteGroup[] = [];
  for (const kind of ORDER) {
    const g = byKind.get(kind);
    if (g === undefined) continue;
    // Translations beside pages that are none; every other kind beside
    // more pages than it has files (a built page has a source of its own:
    // as many as the documents).
    const pages = prose - translated;
    if (kind === TRANSLATIONS ? pages < TRANSLATED_BESIDE : g.files > pages || (g.files === pages && kind !== BUILT)) continue;
    // The pages without a source come back after the rule that leaves
    // the others out (a later rule wins).
    const patterns = [...g.patterns].sort();
    if (kind === BUILT) for (const path of built!.kept) patterns.push(`!/${escapeRule(path)}`);
    groups.push({ kind, patterns, files: g.files, example: g.example });
  }
  return { prose, text, groups, partial };
}

const BUILT: SiteKind = 'HTML pages built from the sources beside them';
const TRANSLATIONS: SiteKind = 'translations of these pages';
const ORDER: readonly SiteKind[] = ['style sheets', 'scripts', 'templates', 'build and server configuration', 'fragments included by other pages', 'SVG images', BUILT, TRANSLATIONS];

/** A folder's name as a language's (BCP 47's language, two letters, and
 *  a region or script: `de`, `zh-cn`, `pt-BR`, `zh_Hant`). */
const LANGUAGE = /^[a-z]{2}(?:[-_](?:[a-z]{2}|[a-z]{4}))?$/i;
/** Pages a translation folder mirrors, at least; and pages beside the
 *  translations that are none, at least. */
const MIRRORED_AT_LEAST = 3;
const TRANSLATED_BESIDE = 3;

/** Folders named as languages whose files are, by at least half and
 *  MIRRORED_AT_LEAST, the files of another by the same paths: of the
 *  folder they are in (`de/guides/i18n.mdx` for `guides/i18n.mdx`:
 *  Starlight), of the folder their name extends (`pages.de/common/tar.md`
 *  for `pages/common/tar.md`: tldr), or of the language folder beside
 *  them that the others
 *  translate, `en` or else the largest (`ja/docs/tutorial/cors.md` for
 *  `en/docs/tutorial/cors.md`: FastAPI, a Hugo site's `content/`);
 *  outermost only. One lookup a file. */
function translationDirs(files: readonly Found[]): Set<string> {
  const paths = new Set(files.map((f) => f.path));
  const dirs = new Map<string, { parent: string; english: boolean; all: number; mirrored: number; rest: Set<string> }>();
  for (const f of files) {
    const parts = f.path.split('/');
    for (let i = 0; i < parts.length - 1; i++) {
      // `de`, or `pages.de` beside `pages` (tldr's pages).
      const dot = parts[i].lastIndexOf('.');
      const suffixed = dot > 0 && LANGUAGE.test(parts[i].slice(dot + 1));
      if (!suffixed && !LANGUAGE.test(parts[i])) continue;
      const dir = parts.slice(0, i + 1).join('/');
      const parent = parts.slice(0, i).join('/');
      const rest = parts.slice(i + 1).join('/');
      const original = suffixed ? `${parent === '' ? '' : `${parent}/`}${parts[i].slice(0, dot)}/${rest}` : parent === '' ? rest : `${parent}/${rest}`;
      let d = dirs.get(dir);
      // (A suffixed folder is compared with its own original alone: a
      // parent key of its own keeps it out of the folders beside it.)
      if (d === undefined) dirs.set(dir, (d = { parent: suffixed ? `${dir}\u0000` : parent, english: !suffixed && /^en(?:$|[-_])/i.test(parts[i]), all: 0, mirrored: 0, rest: new Set() }));
      d.all++;
      d.rest.add(rest);
      if (paths.has(original)) d.mirrored++;
      break;
    }
  }
  // The language folder each parent's others translate.
  const source = new Map<string, string>();
  for (const [dir, d] of dirs) {
    const best = source.get(d.parent);
    const b = best === undefined ? undefined : dirs.get(best)!;
    if (b === undefined || (!b.english && (d.english || d.all > b.all))) source.set(d.parent, dir);
  }
  const out = new Set<string>();
  for (const [dir, d] of dirs) {
    let mirrored = d.mirrored;
    const from = source.get(d.parent);
    if (from !== undefined && from !== dir) {
      const original = dirs.get(from)!.rest;
      let beside = 0;
      for (const r of d.rest) if (original.has(r)) beside++;
      mirrored = Math.max(mirrored, beside);
    }
    if (mirrored >= MIRRORED_AT_LEAST && mirrored * 2 >= d.all) out.add(dir);
  }
  return out;
}

/** Sources an HTML page may be built from, by extension. */
const SOURCES = new Set(['md', 'markdown', 'mdx', 'qmd', 'rmd', 'txt', 'adoc', 'asciidoc', 'asc', 'rst', 'rest', 'org']);
/** Built pages of a folder, at least; and its pages without a source, at
 *  most, and at most one in ten (BUILT's rule). */
const BUILT_AT_LEAST = 5;
const UNBUILT_AT_MOST = 20;

/** The HTML pages of `files` built from a source beside them (the same
 *  path but for its extension), and the HTML pages without one, in order;
 *  undefined where they are not most of the pages (BUILT_AT_LEAST,
 *  UNBUILT_AT_MOST, nine in ten). */
function builtPages(files: readonly Found[]): { pages: Set<string>; kept: string[] } | undefined {
  const sources = new Set<string>();
  for (const f of files) if (SOURCES.has(f.ext)) sources.add(f.path.slice(0, f.path.length - f.ext.length));
  const pages = new Set<string>();
  const kept: string[] = [];
  for (const f of files) {
    if (f.ext !== 'html' && f.ext !== 'htm') continue;
    if (sources.has(f.path.slice(0, f.path.length - f.ext.length))) pages.add(f.path);
    else kept.push(f.path);
  }
  if (pages.size < BUILT_AT_LEAST || kept.length > UNBUILT_AT_MOST || kept.length * 10 > pages.size + kept.length) return undefined;
  return { pages, kept: kept.sort() };
}

/** The site kind of a file that is not prose, by its extension and where
 *  it is; undefined for the rest (data, code, media). */
function kindOf(f: Found): SiteKind | undefined {
  if (STYLE.has(f.ext)) return 'style sheets';
  if (SCRIPT.has(f.ext)) return 'scripts';
  if (TEMPLATE.has(f.ext)) return 'templates';
  if (f.ext === 'svg') return 'SVG images';
  if (!f.path.includes('/') && (SHELL.has(f.ext) || CONFIG_EXT.has(f.ext) || CONFIG_NAMES.has(f.path))) return 'build and server configuration';
  return undefined;
}

/** The rule that names a site file: by extension (anywhere, or at the
 *  top for build configuration), or by name (a build tool's file). */
function rule(kind: SiteKind, f: Found): string {
  if (kind !== 'build and server configuration') return `*.${escapeRule(f.ext)}`;
  return CONFIG_NAMES.has(f.path) ? `/${f.path}` : `/*.${escapeRule(f.ext)}`;
}

/** A top-level file named as build tools name theirs (`Makefile` has no
 *  extension, so it would count as prose). */
function isConfigName(f: Found): boolean {
  return !f.path.includes('/') && CONFIG_NAMES.has(f.path);
}

/** Every file a listing could show: subjects and the other files of
 *  shared slugs, hidden ones and skills' files apart. */
function visibleFiles(index: SubjectIndex): Found[] {
  const out: Found[] = [];
  // A name holding a control character is no subject (index/clean.ts),
  // and could not be written on one line of a .kbignore.
  for (const s of index.subjects) if (!s.hidden && s.skill === undefined && !CONTROL.test(s.path)) out.push({ path: s.path, ext: s.ext });
  for (const shared of index.shared?.values() ?? []) {
    for (const o of shared.others) if (!isHidden(o.path) && !CONTROL.test(o.path)) out.push({ path: o.path, ext: extOf(o.path) });
  }
  return out;
}

function isHidden(path: string): boolean {
  return path.startsWith('.') || path.includes('/.');
}

/** The lower-case extension of a path's file name ('' for none). */
function extOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** The outermost of `dirs` that holds `path`, or undefined. */
function enclosing(path: string, dirs: ReadonlySet<string>): string | undefined {
  if (dirs.size === 0) return undefined;
  for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) {
    const dir = path.slice(0, i);
    if (dirs.has(dir)) return dir;
  }
  return undefined;
}

/** Folders whose index page says their pages are not rendered. */
function fragmentDirs(index: SubjectIndex, files: readonly Found[]): Set<string> {
  const out = new Set<string>();
  const abs = new Map(index.subjects.map((s) => [s.path, s.abs]));
  for (const f of files) {
    const slash = f.path.lastIndexOf('/');
    if (slash < 0 || !INDEX_PAGES.has(f.path.slice(slash + 1))) continue;
    const at = abs.get(f.path);
    const front = at === undefined ? undefined : probeFile(at).front;
    if (typeof front === 'string' && notRendered(front)) out.add(f.path.slice(0, slash));
  }
  return out;
}

/** Front matter (YAML; TOML between `+++` fences is not read) that says
 *  a folder's pages are neither rendered nor listed, Hugo's headless
 *  bundle: a `headless: true` line, or both a `render: never` (or
 *  `false`) and a `list: never` (or `false`) line, at any indentation
 *  (under `build`, `_build` or `cascade`). A folder whose pages are listed
 *  (a glossary whose terms its index page lists) is content. One pass
 *  over its lines. */
export function notRendered(front: string): boolean {
  let render = false;
  let list = false;
  for (const raw of front.split('\n')) {
    const hash = raw.indexOf(' #');
    const line = (hash < 0 ? raw : raw.slice(0, hash)).trim();
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().replace(/^["']|["']$/g, '');
    const value = line
      .slice(colon + 1)
      .trim()
      .replace(/^["']|["']$/g, '')
      .toLowerCase();
    if (key === 'headless' && value === 'true') return true;
    if (key === 'render' && (value === 'never' || value === 'false')) render = true;
    if (key === 'list' && (value === 'never' || value === 'false')) list = true;
  }
  return render && list;
}

/** Folders named as site generators name their template folders, holding
 *  no prose but HTML (outermost first). */
function templateFolders(files: readonly Found[]): Set<string> {
  const named = new Map<string, boolean>(); // folder -> holds only templates and HTML so far
  for (const f of files) {
    const parts = f.path.split('/');
    for (let i = 0; i < parts.length - 1; i++) {
      if (!TEMPLATE_DIRS.has(parts[i])) continue;
      const dir = parts.slice(0, i + 1).join('/');
      const fits = !isProse(f.ext) || f.ext === 'html' || f.ext === 'htm';
      named.set(dir, (named.get(dir) ?? true) && fits);
      break;
    }
  }
  const out = new Set<string>();
  for (const [dir, fits] of named) if (fits) out.add(dir);
  return out;
}

/** A path as a gitignore rule names it literally: `\` before the
 *  characters a glob gives a meaning to, and before a trailing space
 *  (every rule written starts with `/` or `*.`, so a leading `!` or `#`
 *  never needs one). */
function escapeRule(path: string): string {
  return path.replace(/[\\*?[\]]/g, (c) => `\\${c}`).replace(/ $/, '\\ ');
}

/** Rules written for one kind, at most (folders of fragments or
 *  templates can be many): the file stays small. */
const RULES_PER_GROUP = 100;

/** The `.kbignore` kb init writes for a survey's groups: a comment that
 *  says what it is and how to undo it, then per group a comment (its kind,
 *  how many files, the first) and its rules. */
export function kbignoreText(survey: SiteSurvey, limit?: string): string {
  const lines = [
    '# Written by kb init: the files of the site around these documents (style',
    '# sheets, scripts, templates, build and server configuration, fragments',
    '# that pages include, SVG images, HTML pages built from the sources beside',
    '# them, translations), left out of the topic. Delete a rule to make its',
    '# files subjects again; `kb list --ignored` shows what is left out.',
  ];
  if (survey.partial) lines.push(`# (Seen: the folder's first ${limit ?? 'entries'}, where the walk stopped.)`);
  for (const g of survey.groups) {
    const files = g.files === 1 ? `1 file: ${g.example}` : `${g.files} files, such as ${g.example}`;
    lines.push('', `# ${g.kind} (${files})`, ...g.patterns.slice(0, RULES_PER_GROUP));
    const more = g.patterns.length - RULES_PER_GROUP;
    if (more > 0) lines.push(`# (and ${more} more folders of this kind, not named here)`);
  }
  return `${lines.join('\n')}\n`;
}
