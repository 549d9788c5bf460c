// kb completion SHELL: prints the completion script for bash, zsh, fish or
// PowerShell.
// The scripts ask `kb __complete` for candidates as the user types, so topic
// IDs and subject slugs come from the workspace at completion time.
import type { Command } from '../command.ts';
import { print } from '../output.ts';
import { UsageError } from '../../shared/errors.ts';
import { SCRIPTS, type Shell } from '../../render/completion.ts';

const SHELLS = Object.keys(SCRIPTS) as Shell[];

const command: Command = {
  args: {
    shell: { type: 'positional', required: true, valueHint: 'shell', description: `The shell: ${SHELLS.join(', ')}` },
  },
  help: {
    examples: [
      ['source <(kb completion bash)', 'Complete kb in this bash (add the line to ~/.bashrc to keep it)'],
      ['kb completion fish > ~/.config/fish/completions/kb.fish', 'Complete kb in every new fish'],
      ['kb completion powershell | Out-String | Invoke-Expression', 'Complete kb in this PowerShell (add the line to $PROFILE to keep it)'],
    ],
  },
  run(ctx) {
    const [shell, ...extra] = ctx.positionals;
    if (shell === undefined) throw new UsageError(`kb completion needs a shell: ${SHELLS.join(', ')}`);
    if (!SHELLS.includes(shell as Shell)) throw new UsageError(`unknown shell "${shell}"; expected one of: ${SHELLS.join(', ')}`, shell);
    if (extra.length > 0) throw new UsageError('kb completion takes one shell', extra[0]);
    print(SCRIPTS[shell as Shell]);
    return 0;
  },
};

export default command;
