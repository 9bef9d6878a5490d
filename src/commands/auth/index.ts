import { Command } from 'commander';
import { examples, type Invoke } from '../kit.js';

export function authCommand(invoke: Invoke): Command {
  const cmd = new Command('auth').description('Store, show and remove the API key of a profile');
  examples(
    cmd
      .command('login')
      .description('Check an API key with one cheap request, then store it in a profile (config file mode 0600)')
      .option('--with-key', 'read the key from stdin instead of prompting (for scripts)')
      .option('--activate', 'also make this profile the active one (otherwise the active profile stays as it is)')
      .action(invoke(async () => (await import('./login.js')).run)),
    'srs auth login --base-url https://api.example.com',
    'printf %s "$SRS_KEY" | srs auth login --profile ci --base-url https://api.example.com --with-key',
    'srs auth login --profile staging --base-url https://staging.example.com --activate',
  );
  examples(
    cmd
      .command('switch')
      .description('Make a stored profile the active one (the one commands use without --profile or SRS_PROFILE)')
      .argument('<name>', 'the profile to make active (see srs auth status)')
      .action(invoke(async () => (await import('./switch.js')).run)),
    'srs auth switch staging',
    'srs auth switch default',
  );
  examples(
    cmd
      .command('status')
      .description('Show the profile in use, its base URL, where the key comes from (last 4 characters only), and every stored profile')
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
