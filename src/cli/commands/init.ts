// kb init [DIR...]: makes the working directory (or -w's) a workspace, with
// one topic per folder given, or a `notes` topic (app/init.ts). stdout
// carries the product: the configuration text added (or, with --dry-run,
// that would be), exactly as written, so that it can be read or redirected;
// stderr says where it went, what was found, the notes and the next steps
// (nothing of that with -q). Exit 0 when done or nothing was left to do,
// 1 when something stopped it (nothing is written then), 2 on wrong usage.
import { init } from '../../app/init.ts';
import { initHead, initStopped, initTail } from '../../render/init.ts';
import { UsageError } from '../../shared/errors.ts';
import { error, info } from '../../shared/log.ts';
import { formatProblem } from '../../shared/problem.ts';
import type { Command } from '../command.ts';
import { print } from '../output.ts';
import { homeDirectory } from '../home.ts';

const command: Command = {
  args: {
    dir: { type: 'positional', required: false, valueHint: 'dir', description: 'A folder of text files to make a topic of, inside the workspace (repeatable; default: a notes topic at .jp/kb/notes)' },
    'dry-run': { type: 'boolean', description: 'Print the configuration kb init would add; write nothing' },
  },
  help: {
    usage: ['[DIR...]'],
    examples: [
      ['kb init', 'A workspace here with one topic, notes (.jp/kb/notes), for kb remember'],
      ['kb init docs skills', 'Topics docs and skills for those folders; Agent Skills are recognised'],
      ['kb init --dry-run docs', 'Print what would be added to .jp/config.toml; write nothing'],
      ['kb -w ~/notes init', 'Make ~/notes a workspace, from anywhere'],
    ],
  },
  async run(ctx) {
    if (ctx.globals.cfg.length > 0) throw new UsageError('kb init writes the configuration file; it takes no --cfg', '--cfg');
    if (ctx.globals.knowledge.length > 0) throw new UsageError('kb init writes the configuration file; it takes no -k', '-k');
    const result = await init({
      cwd: ctx.cwd,
      workspace: ctx.globals.workspace,
      dirs: ctx.positionals,
      dryRun: ctx.flags['dry-run'] === true,
      env: ctx.env,
      home: await homeDirectory(ctx.env),
    });
    if (result.errors.length > 0) {
      if (result.text !== '') print(result.text);
      for (const e of result.errors) await error(formatProblem(e));
      await info(initStopped(result));
      return 1;
    }
    for (const line of initHead(result)) await info(line);
    if (result.text !== '') print(result.text);
    for (const line of initTail(result, { workspace: ctx.globals.workspace })) await info(line);
    return 0;
  },
};

export default command;
