/** Ctrl-C at the hidden key prompt exits 130, like SIGINT anywhere else (src/util/signals.ts). */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { promptHidden } from '../../src/commands/auth/prompt.js';
import { InterruptedError } from '../../src/util/signals.js';

describe('promptHidden', () => {
  it('Ctrl-C (raw mode delivers it as \\u0003) is an interruption: exit 130, not a usage error', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const answer = promptHidden(input, output, 'API key: ');
    input.write('abc\u0003');
    const e = await answer.then(() => undefined, (err: unknown) => err);
    expect(e).toBeInstanceOf(InterruptedError);
    expect((e as InterruptedError).exitCode).toBe(130);
    expect((e as InterruptedError).signal).toBe('SIGINT');
  });

  it('Enter ends the key, which is never echoed', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.setEncoding('utf8').on('data', (d: string) => (shown += d));
    const answer = promptHidden(input, output, 'API key: ');
    input.write('s3cret\r');
    expect(await answer).toBe('s3cret');
    expect(shown).not.toContain('s3cret');
  });
});

describe('promptHidden keeps what was pasted', () => {
  it('a tab or an escape inside a pasted key is kept (for the key check to refuse), not dropped into another key', async () => {
    const { keyProblem } = await import('../../src/config/resolve.js');
    const input = new PassThrough();
    const output = new PassThrough();
    const answer = promptHidden(input, output, 'API key: ');
    input.write('other\tKEY\u001b[D\r');
    const key = await answer;
    expect(key).toBe('other\tKEY\u001b[D');
    expect(keyProblem(key)).toBe('contains whitespace, a line break or a control character');
  });
});
