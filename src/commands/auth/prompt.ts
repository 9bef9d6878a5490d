/** A hidden prompt on a TTY: echoes nothing, Ctrl-C aborts. */
import type { Readable, Writable } from 'node:stream';
import { InterruptedError, onInterrupt } from '../../util/signals.js';

type TtyIn = Readable & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };

export function promptHidden(input: TtyIn, output: Writable, question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    output.write(question);
    let value = '';
    const wasRaw = false;
    input.setRawMode?.(true);
    input.resume();
    input.setEncoding('utf8');
    // A signal (SIGTERM, SIGHUP; SIGINT from outside) ends the prompt as Ctrl-C does: the terminal restored and the
    // line ended (the next output landed on the prompt's line: "API key for ...: RC=143"), then its exit code.
    const offSignal = onInterrupt((sig) => done(new InterruptedError(sig, 'cancelled')));
    const done = (err?: Error) => {
      offSignal();
      input.setRawMode?.(wasRaw);
      input.pause();
      input.removeListener('data', onData);
      output.write('\n');
      if (err) reject(err);
      else resolve(value);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return done();
        // Ctrl-C in raw mode arrives as a character, not as SIGINT: the same exit code all the same.
        if (ch === '\u0003') return done(new InterruptedError('SIGINT', 'cancelled'));
        if (ch === '\u0004') return done();
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        // Anything else is kept, control characters too: dropped, a pasted "key<TAB>rest" became another key that was
        // sent (and refused by the service); kept, the key's own check refuses it before anything is sent, as it
        // does for --with-key.
        else value += ch;
      }
    };
    input.on('data', onData);
  });
}
