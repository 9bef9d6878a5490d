import { describe, expect, it } from 'vitest';
import { makeRedactor } from '../../src/util/redact.js';

describe('makeRedactor', () => {
  it('finds the key in any letter case in a chunk of any size (over 64 KiB it was searched in three cases only)', () => {
    const r = makeRedactor();
    r.add('Sekr3tKeyAbc');
    const big = Buffer.from(`${'x'.repeat(140_000)} "description":"sEKR3TkeyABC" ${'y'.repeat(10)}`, 'latin1');
    expect(r.mayHold(big)).toBe(true);
    const masked = r.redact(big.toString('latin1'));
    expect(masked).not.toMatch(/sekr3tkeyabc/i);
    expect(masked).toContain('****yAbc');
    expect(r.mayHold(Buffer.from('x'.repeat(140_000)))).toBe(false);
  });

  it('finds the key as JSON and CSV write it: a key holding " or \\ is escaped there', () => {
    const key = 'Secret"Key\\Value9876';
    const r = makeRedactor();
    r.add(key);
    const json = JSON.stringify({ note: `your key is ${key}` });
    const csv = `note\n"your key is ${key.replace(/"/g, '""')}"\n`;
    for (const text of [json, csv]) {
      expect(r.mayHold(Buffer.from(text))).toBe(true);
      expect(r.redact(text)).not.toMatch(/Secret/i);
      expect(r.redact(text)).toContain('****9876');
    }
  });

  it('finds the key as URLs and query strings spell it: encodeURIComponent, URLSearchParams (~), "+" kept as typed', () => {
    for (const key of ['q8Zr+Kd/Wm3x=Tn7Pa', 'abc~Zq_Sekret99']) {
      const r = makeRedactor();
      r.add(key);
      const spellings = [key, encodeURIComponent(key), new URLSearchParams([['x', key]]).toString().slice(2), encodeURIComponent(key).replace(/%2B/g, '+'), encodeURIComponent(key).toLowerCase()];
      for (const s of spellings) {
        const line = `debug: -> GET /v1/countries?x=${s}&page=1`;
        expect(r.mayHold(Buffer.from(line)), s).toBe(true);
        expect(r.redact(line), s).not.toContain(s);
        expect(r.redact(line)).toContain(`****${key.slice(-4)}`);
      }
    }
  });
  it('finds the key as other JSON encoders escape it (\\/ and \\uXXXX, as PHP and Go do) and as the HTML report escapes it', () => {
    const r = makeRedactor();
    const key = 'Sl/ash&Key<99>ABCD';
    r.add(key);
    for (const spelled of ['Sl\\/ash\\u0026Key\\u003c99\\u003eABCD', 'Sl\\/ash\\u0026Key\\u003C99\\u003EABCD', '\\u0053l/ash&Key<99>ABCD', 'Sl/ash&#38;Key&#60;99&#62;ABCD']) {
      expect(r.redact(`a "${spelled}" b`), spelled).toBe('a "****ABCD" b');
      expect(r.mayHold(Buffer.from(spelled)), spelled).toBe(true);
    }
    expect(r.redact('Sl/ash and Key<99> apart')).toBe('Sl/ash and Key<99> apart');
  });

  it('masks a short key whole: its last 4 characters were most or all of it ("********Zq7w")', () => {
    const r = makeRedactor();
    r.add('Zq7w');
    r.add('k3Y9x');
    expect(r.redact('key Zq7w and k3Y9x')).toBe('key **** and ****');
    const long = makeRedactor();
    long.add('a-long-enough-key-WXYZ');
    expect(long.redact('a-long-enough-key-WXYZ')).toBe('****WXYZ');
  });
});

describe('keys of any length', () => {
  it('a key of thousands of characters is masked without a regular expression V8 cannot compile (it crashed every command and printed the key)', () => {
    for (const length of [1025, 7000, 2_000_000]) {
      const key = 'Zd'.repeat(length / 2 + 1).slice(0, length);
      const r = makeRedactor();
      r.add(key);
      const text = `before ${key} middle ${key.toLowerCase()} ${encodeURIComponent(key)} after`;
      const out = r.redact(text);
      expect(out).toBe('before ****' + key.slice(-4) + ' middle ****' + key.slice(-4) + ' ****' + key.slice(-4) + ' after');
      expect(r.mayHold(Buffer.from(text))).toBe(true);
      expect(r.mayHold(Buffer.from('nothing here'))).toBe(false);
    }
  });

  it('keyProblem refuses keys of 1-3 characters (they cannot be masked) and of more than 1,024', async () => {
    const { keyProblem } = await import('../../src/config/resolve.js');
    expect(keyProblem('abc')).toContain('too short');
    expect(keyProblem('abcd')).toBeUndefined();
    expect(keyProblem('k'.repeat(1024))).toBeUndefined();
    expect(keyProblem('k'.repeat(1025))).toContain('longer than any API key srs takes (at most 1,024)');
  });
});
