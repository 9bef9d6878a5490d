import { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { suggest } from '../../util/suggest.js';
import { examples } from '../kit.js';

/**
 * `srs help [command...]`: the help of any command, nested ones included
 * (`srs help score calc`), which Commander's implicit help command does not reach.
 */
export function helpCommand(): Command {
  const cmd = new Command('help').description('Show the help of a command, e.g. srs help score calc').argument('[command...]', 'a command and its subcommands');
  cmd.action((words: string[]) => {
    let target = cmd.parent ?? cmd;
    const path: string[] = [target.name()];
    for (const w of words) {
      const next = target.commands.find((c) => c.name() === w || c.aliases().includes(w));
      if (!next) {
        const names = target.commands.filter((c) => c !== cmd).flatMap((c) => [c.name(), ...c.aliases()]);
        throw new UsageError(
          target.commands.length
            ? `unknown command '${w}' for "${path.join(' ')}"${suggest(w, names) || ` (see "${path.join(' ')} --help")`}`
            : `"${path.join(' ')}" has no subcommands (got '${w}')`,
        );
      }
      target = next;
      path.push(w);
    }
    target.outputHelp();
  });
  return examples(cmd, 'srs help score calc', 'srs help supplier');
}
