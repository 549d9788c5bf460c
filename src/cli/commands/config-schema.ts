// kb config-schema: the JSON Schema of the configuration, for editors. Needs
// no workspace: the schema describes every workspace alike.
import type { Command } from '../command.ts';
import { print } from '../output.ts';
import { UsageError } from '../../shared/errors.ts';
import { renderConfigSchema } from '../../render/config-schema.ts';

const command: Command = {
  args: {},
  run(ctx) {
    if (ctx.positionals.length > 0) throw new UsageError('kb config-schema takes no arguments', ctx.positionals[0]);
    print(renderConfigSchema());
    return 0;
  },
};

export default command;
