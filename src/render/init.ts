// What `kb init` tells a person, around its product (the configuration text
// added, on stdout): on stderr, what was done before it, then what was
// found (Agent Skills), the notes (a folder some topic has already) and the
// next steps after it. One line per string; the front end writes them.
import { escapeControls } from '../shared/controls.ts';

/** What init did, as render needs it (app/init.ts InitResult). */
export interface InitView {
  config: string;
  createdConfig: boolean;
  createdWorkspace: boolean;
  added: readonly {
    id: string;
    subjects: string;
    given?: string;
    from?: string;
    created: boolean;
    skills: readonly string[];
    skillsMore: boolean;
    isSkill: boolean;
    draftedFrom?: string;
    title?: string;
    introduction?: string;
    kbignore?: { path: string; text: string; groups: readonly { kind: string; patterns: readonly string[] }[] };
    kbignoreKept?: { path: string; rules: readonly string[] };
  }[];
  notes: readonly { given: string; message: string }[];
  dryRun: boolean;
  written: boolean;
  outer?: string;
  root: string;
  elsewhere: boolean;
  existing: number;
}

/** Skill folders named in a line, at most. */
const SKILLS_SHOWN = 3;

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A word for a POSIX shell: as it is when it needs no quoting. */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The lines before the product: what was (or would be) written where. */
export function initHead(r: InitView): string[] {
  const n = plural(r.added.length, 'topic');
  const out: string[] = [];
  if (r.added.length === 0) return out;
  const config = escapeControls(r.config);
  if (r.dryRun) out.push(`Dry run, nothing written: kb init would ${r.createdConfig ? `create ${config} with ${n}` : `append ${n} to ${config}`}:`);
  else out.push(r.createdConfig ? `Created ${config} with ${n}:` : `Appended ${n} to ${config}:`);
  return out;
}

/** The lines after the product: what was found, the notes, the next steps. */
export function initTail(r: InitView, opts: { workspace?: string } = {}): string[] {
  const out: string[] = [];
  for (const t of r.added) {
    const id = escapeControls(t.id);
    const folder = escapeControls(t.subjects);
    if (t.from !== undefined) out.push(`topic ${id}: the ID made from the folder name "${escapeControls(t.from)}" (IDs are lower-case letters, digits, - and _, and unique)`);
    if (t.created) out.push(`topic ${id}: ${r.dryRun ? 'would create' : 'created'} the folder ${folder}, empty: kb remember ${id} "..." writes to it`);
    if (t.skills.length > 0) {
      const shown = t.skills.slice(0, SKILLS_SHOWN).map(escapeControls).join(', ');
      const rest = t.skills.length - SKILLS_SHOWN;
      const count = `${t.skillsMore ? 'at least ' : ''}${plural(t.skills.length, 'Agent Skill')}`;
      out.push(`topic ${id}: ${folder} holds ${count} (${shown}${rest > 0 ? `, and ${rest} more` : ''}): each is one subject, its other files bundled with it`);
    }
    if (t.isSkill) out.push(`topic ${id}: ${folder} is itself an Agent Skill (it holds SKILL.md), listed as an ordinary subject; give its parent folder to have it listed as a skill`);
    out.push(...siteLines(id, t, r.dryRun));
  }
  for (const n of r.notes) out.push(`note: ${escapeControls(n.message)}`);
  if (r.outer !== undefined) {
    const outer = escapeControls(r.outer);
    out.push(`note: ${outer} is a workspace too; kb commands run in ${escapeControls(r.root)} or below ${r.dryRun ? 'would' : 'now'} use this one instead (to add topics to ${outer}, run kb -w ${escapeControls(shellWord(r.outer))} init DIR...${r.dryRun ? '' : ' and remove the .jp made here'})`);
  }
  if (r.dryRun) return out;
  if (r.added.length === 0) out.push(`Nothing added to ${escapeControls(r.config)}${r.existing > 0 ? ` (it has ${plural(r.existing, 'topic')})` : ''}.`);

  // Next steps: `-w` as typed for commands run here; the absolute root for
  // an MCP client, which starts kb in a directory of its own choosing.
  const w = r.elsewhere && opts.workspace !== undefined ? `-w ${shellWord(opts.workspace)} ` : '';
  const mcpW = r.elsewhere ? `-w ${shellWord(r.root)} ` : '';
  const notes = r.added.find((t) => t.created);
  const first = r.added[0];
  const rows: [string, string][] = [
    [`kb ${w}list`, 'the topics and their subjects'],
    ...(first !== undefined && notes === undefined ? [[`kb ${w}learn ${shellWord(first.id)}`, 'a topic as the model sees it'] as [string, string]] : []),
    ...(notes !== undefined ? [[`kb ${w}remember ${shellWord(notes.id)} "..."`, 'write a note to it'] as [string, string]] : []),
    [`kb ${w}prompt`, 'the <knowledge> section for a system prompt'],
    [`claude mcp add kb -- kb ${mcpW}mcp${notes !== undefined ? ` --write ${shellWord(notes.id)}` : ''}`, 'serve it to Claude Code (any MCP client: kb mcp)'],
  ];
  const width = Math.max(...rows.map(([c]) => c.length));
  out.push('', 'Next steps:', ...rows.map(([c, d]) => `  ${escapeControls(c.padEnd(width))}   ${d}`));
  return out;
}

/** What init drafted and the `.kbignore` it wrote (or would write, shown
 *  whole), for one topic. */
function siteLines(id: string, t: InitView['added'][number], dryRun: boolean): string[] {
  const out: string[] = [];
  if (t.draftedFrom !== undefined) {
    const what = t.title !== undefined && t.introduction !== undefined ? 'title and introduction' : t.title !== undefined ? 'title' : 'introduction';
    out.push(`topic ${id}: ${what} drafted from ${escapeControls(t.draftedFrom)}: edit ${t.title !== undefined && t.introduction !== undefined ? 'them' : 'it'} in the configuration`);
  }
  if (t.kbignore !== undefined) {
    const what = t.kbignore.groups.map((g) => `${g.kind} (${g.patterns.slice(0, 4).map(escapeControls).join(', ')}${g.patterns.length > 4 ? ', …' : ''})`).join('; ');
    const path = escapeControls(t.kbignore.path);
    if (dryRun) out.push(`topic ${id}: would write ${path}, leaving out the site files beside its documents (--no-kbignore: not written):`, ...t.kbignore.text.trimEnd().split('\n').map((l) => (l === '' ? '' : `  ${escapeControls(l)}`)));
    else out.push(`topic ${id}: wrote ${path}, leaving out the site files beside its documents: ${what} (kb list --ignored shows them; delete a rule to bring its files back)`);
  }
  if (t.kbignoreKept !== undefined) {
    const rules = t.kbignoreKept.rules.map(escapeControls).join(', ');
    out.push(`topic ${id}: ${escapeControls(t.kbignoreKept.path)} exists and is left as it is; site files beside the documents that it may want: ${rules}`);
  }
  return out;
}

/** The line after the errors that stopped init. */
export function initStopped(r: Pick<InitView, 'dryRun'>): string {
  return r.dryRun ? 'Nothing would be written.' : 'Nothing written: kb init writes all of it or nothing.';
}
