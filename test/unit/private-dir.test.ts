/**
 * privateDir and makeDirs (src/util/fs.ts): mkdir -p one level at a time. Node's own recursive mkdir loops
 * forever where a directory cannot be made under a parent that exists (ENOENT under /proc): srs auth status
 * with SRS_CONFIG_DIR=/proc/x hung at full CPU, deaf to SIGTERM (test/integration/cli.test.ts runs that).
 */
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeDirs, privateDir } from '../../src/util/fs.js';

describe('makeDirs', () => {
  it('makes every missing level 0700 and returns the first it made; an existing directory is left alone', () => {
    const base = mkdtempSync(join(tmpdir(), 'srs-dirs-'));
    const deep = join(base, 'a', 'b', 'c');
    expect(makeDirs(deep, 0o700)).toBe(join(base, 'a'));
    expect(statSync(deep).isDirectory()).toBe(true);
    expect(makeDirs(deep, 0o700)).toBeUndefined();
  });

  it('a file in the way is EEXIST, named by privateDir', () => {
    const base = mkdtempSync(join(tmpdir(), 'srs-dirs-'));
    writeFileSync(join(base, 'file'), '');
    expect(() => privateDir(join(base, 'file', 'sub'), false, 'config directory')).toThrow(/cannot use .*file\/sub as srs's config directory \(EEXIST: a file is in the way\)/);
  });
});
