// kb check: everything a pre-commit hook should catch (the rules are in
// app/check.ts). Errors exit 1, warnings alone exit 0.
import { check } from '../../app/check.ts';
import { KnowledgeBase } from '../../app/knowledge-base.ts';
import { renderCheckJson, renderCheckText } from '../../render/check.ts';
import { isVerbose, warn } from '../../shared/log.ts';
import { formatProblem } from '../../shared/problem.ts';
import { noArguments } from '../argv.ts';
import type { Command } from '../command.ts';
import { print } from '../output.ts';
import { COSTS } from '../../render/costs.ts';
import { explain, workspaceOptions } from '../workspace.ts';

const command: Command = {
  args: {
    format: { type: 'enum', options: ['text', 'json'], default: 'text', description: 'Report format' },
    duplicates: { type: 'boolean', description: 'Compare every subject for near duplicates, not only those kb remember wrote' },
  },
  help: {
    examples: [
      ['kb check', 'Report errors (exit 1) and warnings (exit 0) on stdout'],
      ['kb check --format json', 'The same report as JSON, for other tools'],
      ['kb check --duplicates', 'Also report near-duplicate pairs among subjects kb did not write'],
    ],
  },
  async run(ctx) {
    noArguments('check', ctx.positionals);
    // The whole pre-loaded set, whatever the prompt's budget.
    const kb = await KnowledgeBase.open({ ...(await workspaceOptions(ctx)), maxTokens: Infinity }, { costs: COSTS });
    if (isVerbose()) await explain(kb.config);
    const summary = await check(kb, ctx.env, { duplicates: ctx.flags.duplicates === true });
    // A bound that cut the comparison is said on stderr too: the report
    // may go to a file or a tool.
    for (const p of summary.diagnostics) if (p.code === 'duplicate-check-bounded') await warn(formatProblem(p));
    print(ctx.flags.format === 'json' ? renderCheckJson(summary) : renderCheckText(summary, { verbose: isVerbose() }));
    return summary.diagnostics.some((d) => d.severity === 'error') ? 1 : 0;
  },
};

export default command;
