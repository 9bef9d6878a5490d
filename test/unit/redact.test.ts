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
});
