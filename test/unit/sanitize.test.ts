/**
 * The one sanitiser for untrusted text (src/output/sanitize.ts): bidirectional
 * and invisible formatting characters never reach a terminal as themselves.
 */
import { describe, expect, it } from 'vitest';
import { escapeJsonForTerminal, sanitizeForTerminal, sanitizeKeepNewlines } from '../../src/output/sanitize.js';

const BIDI = [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c, 0x200b, 0x2060, 0xfeff];

describe('bidi and invisible formatting characters', () => {
  it.each(BIDI.map((cp) => [cp.toString(16).padStart(4, '0'), cp] as const))('U+%s becomes a visible escape', (hex, cp) => {
    const s = `Acme${String.fromCharCode(cp)}exe.txt`;
    // JSON on a terminal too: \uXXXX inside a string is the same character, so the document is unchanged.
    for (const out of [sanitizeForTerminal(s), sanitizeKeepNewlines(s), escapeJsonForTerminal(s)]) {
      expect(out).toBe(`Acme\\u${hex}exe.txt`);
      expect([...out].some((c) => BIDI.includes(c.codePointAt(0)!))).toBe(false);
    }
  });

  it('keeps letters of right-to-left scripts, emoji sequences and plain text as they are', () => {
    for (const s of ['شركة الأمل', 'חברה בע"מ', 'Zürich AG', '👩‍🔬 lab', 'Plain ASCII 1-2 =x']) expect(sanitizeForTerminal(s)).toBe(s);
  });

  it('line and paragraph separators become spaces; escapes and controls still go', () => {
    expect(sanitizeForTerminal('a\u2028b\u2029c')).toBe('a b c');
    expect(sanitizeForTerminal('\u001b[2J\u202eevil\u0007')).toBe('\\u202eevil\\x07');
    expect(sanitizeKeepNewlines('one\ntwo\u202e')).toBe('one\ntwo\\u202e');
  });
});
