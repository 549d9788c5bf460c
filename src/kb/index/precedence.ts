// Which file a shared slug names (docs/guide/knowledge-base.md, "Same-slug files"): the
// document. Folders hold a page beside what it was made from or into
// (`slides.org`, `slides.html`, `slides.css`; `foo.org`, `foo.pdf`; a
// logo as .eps, .png and .svg), and the slug should load what a reader
// would open. In order:
//
// 1. a file that is not hidden, before a hidden one (hidden-ness is what
//    the author chose to keep out of listings);
// 2. prose, in this order: Markdown (md, markdown, mdown, mkd, mkdn), MDX
//    and Quarto's and R Markdown's (qmd, rmd),
//    Org, reStructuredText (rst, rest), AsciiDoc (adoc, asciidoc, asc),
//    plain text (txt, text), HTML (html, htm, xhtml), no extension;
// 3. data and code (DATA_AND_CODE: json, yaml, toml, csv, svg, css, js,
//    py, el, sh...);
// 4. everything else (images, archives, fonts, formats kb does not know);
// 5. within one rank, the first path in code-unit order.
//
// Pure and total: it reads only the lower-case extension, hidden-ness and
// path of each file, and runs only for the files of a shared slug.

/** Prose formats, best first: each family's extensions. */
const PROSE = [['md', 'markdown', 'mdown', 'mkd', 'mkdn'], ['mdx', 'qmd', 'rmd'], ['org'], ['rst', 'rest'], ['adoc', 'asciidoc', 'asc'], ['txt', 'text'], ['html', 'htm', 'xhtml'], ['']];

/** Data and code: text a model reads as it is, after prose. */
const DATA_AND_CODE = [
  // data and configuration
  'json jsonl ndjson json5 jsonc yaml yml toml xml csv tsv ini cfg conf properties env svg bib tex sty ipynb',
  'sql graphql gql proto tf hcl nix dhall cue',
  // style sheets and templates
  'css scss sass less styl gotmpl tmpl tpl j2 jinja jinja2 njk hbs handlebars mustache liquid ejs erb twig pug haml slim vue svelte astro',
  // programming languages
  'js mjs cjs jsx ts mts cts tsx coffee py pyi rb rs go java kt kts scala groovy gradle clj cljs cljc edn',
  'c h cc cpp cxx hh hpp hxx m mm cs fs fsx swift dart zig nim d v vhd vhdl asm s',
  'php pl pm lua r jl hs lhs ml mli ex exs erl hrl el lisp cl scm ss rkt fnl vim awk sed',
  'sh bash zsh fish ksh csh ps1 psm1 bat cmd mk make cmake dockerfile',
];

/** Formats whose files are binary: a file of one is never a subject, so a
 *  slug that loads another file hides nothing in it (a page beside its
 *  PDF, a logo as .png and .jpg, a font as .woff and .woff2): no warning
 *  (subjects.ts). Only formats that are binary by design. */
const BINARY_FORMATS = [
  // images
  'png jpg jpeg jpe gif webp avif heic heif bmp ico icns tif tiff psd xcf',
  // fonts
  'woff woff2 ttf otf eot',
  // audio and video
  'mp3 m4a aac flac ogg oga opus wav mp4 m4v mov avi mkv webm',
  // archives and packages
  'zip gz tgz bz2 xz zst 7z rar jar war whl egg deb rpm dmg iso',
  // documents and compiled code
  'pdf doc docx xls xlsx ppt pptx odt ods odp epub wasm pyc class o so dylib dll exe',
];

/** BINARY_FORMATS as a set, built on first use (as the ranks are). */
let binary: Set<string> | undefined;

/** Whether an extension (lower case) names a binary format
 *  (BINARY_FORMATS). */
export function isBinaryFormat(ext: string): boolean {
  return (binary ??= new Set(BINARY_FORMATS.join(' ').split(' '))).has(ext);
}

/** Ranks below the prose ones. */
const DATA_RANK = 100;
const OTHER_RANK = 200;

/** Each known extension's rank, built on first use (a start that meets
 *  no shared slug never builds it). */
let ranks: Map<string, number> | undefined;

function rankTable(): Map<string, number> {
  const table = new Map<string, number>();
  for (let rank = 0; rank < PROSE.length; rank++) for (const ext of PROSE[rank]) table.set(ext, rank);
  for (const line of DATA_AND_CODE) for (const ext of line.split(' ')) table.set(ext, DATA_RANK);
  return table;
}

/** The rank of a format for a shared slug: lower wins. */
export function formatRank(ext: string): number {
  return (ranks ??= rankTable()).get(ext) ?? OTHER_RANK;
}

/** Whether an extension (lower case, '' for none) is a prose format. */
export function isProse(ext: string): boolean {
  return formatRank(ext) < DATA_RANK;
}

/** Whether an extension is one of data or code (DATA_AND_CODE). */
export function isDataOrCode(ext: string): boolean {
  return formatRank(ext) === DATA_RANK;
}

/** What the order reads of a file. */
export interface Ranked {
  readonly path: string;
  readonly hidden: boolean;
  readonly ext: string;
}

/** Whether `a` comes before `b` for a shared slug (see the top of this
 *  file). A strict order: never true both ways, and false only for the
 *  same path. */
export function precedes(a: Ranked, b: Ranked): boolean {
  if (a.hidden !== b.hidden) return !a.hidden;
  const ra = formatRank(a.ext);
  const rb = formatRank(b.ext);
  if (ra !== rb) return ra < rb;
  return a.path < b.path;
}
