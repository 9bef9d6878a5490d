import { Argument, Command, Option } from 'commander';
import { examples, type Invoke } from '../kit.js';

/** The same list as SHELLS in src/completion/generate.ts, which is loaded only when the command runs. */
export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;

export function completionCommand(invoke: Invoke): Command {
  return examples(
    new Command('completion')
      .description('Print a shell completion script for bash, zsh or fish (commands, options, their values)')
      .addArgument(new Argument('[shell]', 'the shell to complete for').choices(COMPLETION_SHELLS))
      // For scripts/completions.mjs: the man page comes from the same command tree.
      .addOption(new Option('--man', 'print the srs(1) man page (roff) instead').hideHelp())
      .addHelpText(
        'after',
        `
Country and industry codes (--country, --industry) complete from a local cache
in DATA_DIR/completion/, written each time "srs ref countries" or "srs ref
industries" succeeds; completing never calls the service. The same scripts are
in completions/.`,
      )
      .action(invoke(async () => (await import('./run.js')).run)),
    'source <(srs completion bash)                      # bash, this session',
    'srs completion bash > ~/.local/share/bash-completion/completions/srs',
    'srs completion zsh > ~/.zfunc/_srs                 # with fpath=(~/.zfunc $fpath) before compinit',
    'srs completion fish > ~/.config/fish/completions/srs.fish',
  );
}
