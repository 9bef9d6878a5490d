import { Command } from 'commander';
import { examples, type Invoke } from '../kit.js';

export function authCommand(invoke: Invoke): Command {
  const cmd = new Command('auth').description('Store, show and remove the API key of a profile');
  examples(
    cmd
      .command('login')
      .description('Check an API key with one cheap request, then store it in a profile (config file mode 0600)')
      .option('--with-key', 'read the key from stdin instead of prompting (for scripts)')
      .action(invoke(async () => (await import('./login.js')).run)),
    'srs auth login --base-url https://api.example.com',
    'printf %s "$SRS_KEY" | srs auth login --profile ci --base-url https://api.example.com --with-key',
  );
  examples(
    cmd
      .command('status')
      .description('Show the active profile, base URL, where the key comes from and its last 4 characters')
      .action(invoke(async () => (await import('./status.js')).run)),
    'srs auth status',
    'srs auth status --profile ci -o json',
  );
  examples(
    cmd
      .command('logout')
      .description("Remove a profile's stored API key")
      .action(invoke(async () => (await import('./logout.js')).run)),
    'srs auth logout',
    'srs auth logout --profile ci',
  );
  return examples(
    cmd,
    'srs auth login --base-url https://api.example.com',
    'srs auth status',
  );
}
