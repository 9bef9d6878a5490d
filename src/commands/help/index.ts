import { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { examples } from '../kit.js';

/** Edit distance (optimal string alignment), for "did you mean". */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

function suggest(word: string, names: string[]): string {
  let best: string[] = [];
  let bestD = Infinity;
  for (const n of names) {
    const dist = distance(word, n);
    if (dist > Math.max(1, Math.floor(n.length * 0.4))) continue;
    if (dist < bestD) [best, bestD] = [[n], dist];
    else if (dist === bestD) best.push(n);
  }
  return best.length ? ` (did you mean ${best.join(' or ')}?)` : '';
}

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
            ? `unknown command '${w}' for "${path.join(' ')}"${suggest(w, names)}`
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
