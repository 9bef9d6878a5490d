/**
 * Profiles on disk, kept with conf in the user's config directory
 * ($XDG_CONFIG_HOME/srs or ~/.config/srs on Linux, as conf itself would choose;
 * SRS_CONFIG_DIR overrides it, for tests and unusual setups). The file holds API
 * keys, so it is written with mode 0600 inside a 0700 directory whatever the
 * umask, and srs warns when it finds the file readable by others.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Conf from 'conf';
import { ExitCode, SrsError } from '../errors.js';
import { privateDir } from '../util/fs.js';
import { defaultConfigDir } from './paths.js';
import { JournalLock, LOCK_SUFFIX } from '../util/lock.js';

import type { Profile } from './resolve.js';

export { DEFAULT_PROFILE, type Profile } from './resolve.js';

interface StoredConfig {
  currentProfile?: string;
  profiles: Record<string, Profile>;
}


export class ConfigStore {
  readonly #conf: Conf<StoredConfig>;

  constructor(dir?: string) {
    // conf would create its directory with the umask's mode (0755 under umask 022): create it first.
    const cwd = dir ?? defaultConfigDir();
    privateDir(cwd, dir === undefined, 'config directory (SRS_CONFIG_DIR, else XDG_CONFIG_HOME/srs, else ~/.config/srs)');
    // Valid JSON of another shape ([], a string): not a config file. conf would merge its defaults into it and write
    // the file back (the user's file gone), and "not logged in" would then send the user to auth login.
    const file = join(cwd, 'config.json');
    let whole: unknown = {};
    try {
      whole = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      /* no file yet, or not JSON: conf says so below */
    }
    if (whole === null || typeof whole !== 'object' || Array.isArray(whole)) {
      throw new SrsError('runtime', ExitCode.failure, `config file ${file} is not an object of settings; fix it, or move it away and run "srs auth login" again`);
    }
    try {
      this.#conf = new Conf<StoredConfig>({
        projectName: 'srs',
        projectSuffix: '',
        configName: 'config',
        cwd,
        configFileMode: 0o600,
        defaults: { profiles: {} },
        clearInvalidConfig: false,
      });
    } catch (e) {
      // A hand-edited file that is not JSON: say which file and what to do (it holds keys: never cleared silently).
      const file = join(cwd, 'config.json');
      // A write that failed (conf writes the file when it is new): a full disk is not a file to fix by hand.
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'EROFS' || code === 'EACCES' || code === 'EPERM') {
        throw new SrsError('runtime', ExitCode.failure, `config file ${file} cannot be written (${code}); free space or fix the permissions of ${cwd}, or set SRS_CONFIG_DIR to another directory`, { cause: e });
      }
      throw new SrsError('runtime', ExitCode.failure, `config file ${file} cannot be read (${(e as Error).message.replace(/\.$/, '')}); fix it, or move it away and run "srs auth login" again`, { cause: e });
    }
    const profiles = this.#conf.get('profiles');
    if (profiles !== undefined && (profiles === null || typeof profiles !== 'object' || Array.isArray(profiles))) {
      throw new SrsError('runtime', ExitCode.failure, `config file ${this.#conf.path}: "profiles" is not an object; fix it, or move it away and run "srs auth login" again`);
    }
  }

  get path(): string {
    return this.#conf.path;
  }

  profileNames(): string[] {
    return Object.keys(this.#conf.get('profiles') ?? {});
  }

  getProfile(name: string): Profile | undefined {
    const all = this.#conf.get('profiles') ?? {};
    return Object.prototype.hasOwnProperty.call(all, name) ? all[name] : undefined;
  }

  setProfile(name: string, profile: Profile): void {
    this.#locked(() => {
      const all = { ...(this.#conf.get('profiles') ?? {}) };
      all[name] = { ...all[name], ...profile };
      this.#conf.set('profiles', all);
    });
  }

  /** Removes the key (and the profile when nothing else is left in it). Returns whether a key was there. */
  removeKey(name: string): boolean {
    return this.#locked(() => {
      const all = { ...(this.#conf.get('profiles') ?? {}) };
      const p = all[name];
      if (!p) return false;
      const had = typeof p.apiKey === 'string';
      const { apiKey: _dropped, ...rest } = p;
      if (Object.keys(rest).length === 0) delete all[name];
      else all[name] = rest;
      this.#conf.set('profiles', all);
      return had;
    });
  }

  /**
   * Runs a read-modify-write of the file under `config.json.lock` (util/lock.ts), waiting up to 10 s for another
   * srs to finish its own. conf reads the file at every get and replaces it whole at every set: six `auth login`s
   * at once kept three profiles and all said "Logged in"; three `auth logout`s all said the key was removed while
   * one stayed on disk.
   */
  #locked<T>(change: () => T): T {
    const lock = JournalLock.takeWaitingSync(this.path + LOCK_SUFFIX, {
      now: () => new Date(),
      warn: () => undefined,
      inUse: `config file ${this.path} is being changed`,
      stale: 'config lock',
      cannotCreate: 'check that srs may write in its config directory',
      nothing: 'Nothing was changed.',
      holder: { what: 'srs auth' },
      waitMs: 10_000,
    });
    try {
      return change();
    } finally {
      lock.release();
    }
  }

  get currentProfile(): string | undefined {
    const name: unknown = this.#conf.get('currentProfile');
    // A hand-edited file ("currentProfile": 7) was "unexpected error: s.trim is not a function" in every command.
    if (name !== undefined && typeof name !== 'string') {
      throw new SrsError('runtime', ExitCode.failure, `config file ${this.path}: currentProfile is not text; fix the file, or run "srs auth switch NAME" to write it again`);
    }
    return name;
  }

  set currentProfile(name: string | undefined) {
    this.#locked(() => {
      if (name === undefined) this.#conf.delete('currentProfile');
      else this.#conf.set('currentProfile', name);
    });
  }

  /** A warning when the file exists and group or others can read it; undefined when it is private. */
  permissionWarning(): string | undefined {
    try {
      const st = statSync(this.path);
      if ((st.mode & 0o077) !== 0) {
        return `config file ${this.path} is readable by other users (mode ${(st.mode & 0o777).toString(8)}); run: chmod 600 ${this.path}`;
      }
    } catch {
      /* no file yet */
    }
    return undefined;
  }
}

export { defaultConfigDir } from './paths.js';
