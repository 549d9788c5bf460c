// kb config-schema: the JSON Schema of the configuration, for editors. Needs
// no workspace: the schema describes every workspace alike.
import { renderConfigSchema } from '../../app/config-schema.ts';
import { noArguments } from '../argv.ts';
import type { Command } from '../command.ts';
import { print } from '../output.ts';

const command: Command = {
  args: {},
  help: {
    examples: [['kb config-schema > .jp/kb-config.schema.json', "Save it beside the configuration, for the editor's `#:schema` directive"]],
  },
  run(ctx) {
    noArguments('config-schema', ctx.positionals);
    print(renderConfigSchema());
    return 0;
  },
};

export default command;
