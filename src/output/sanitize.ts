/**
 * Text from the service is untrusted: a supplier name or news title could carry
 * terminal escape sequences that rewrite the screen, or bidirectional and
 * invisible formatting characters that reorder what the user reads (a
 * right-to-left override turns "exe.txt" into "txt.exe" on screen). Every place
 * where such text meets a terminal (tables, error lines, warnings, progress,
 * spinners, debug traces) goes through these functions; JSON, NDJSON and CSV keep
 * the data exact (JSON.stringify escapes control characters itself).
 */

// ESC-introduced sequences (CSI, OSC, DCS, single-char), C1 controls, and C0 controls.
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[PX^_][^\u001b]*(?:\u001b\\)?|[@-Z\\-_])|[\u0080-\u009f]/g;
// eslint-disable-next-line no-control-regex
const C0 = /[\u0000-\u0008\u000b-\u001f\u007f]/g;
/**
 * Bidirectional and invisible formatting characters: the embeddings and overrides
 * (U+202A-U+202E), the isolates (U+2066-U+2069), the marks LRM, RLM and ALM
 * (U+200E, U+200F, U+061C), and the characters that are nothing but invisible (zero width space U+200B,
 * word joiner U+2060, zero width no-break space U+FEFF: cli-table3 counts each as a cell, so a name holding
 * one shifted every later column). They are shown as visible escapes (\u202e), so the text reads in its
 * stored order and the user can see something was there. (The zero width joiners U+200C and U+200D are left:
 * scripts and emoji need them.)
 */
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u200b\u2060\ufeff]/g;
/** Unicode line and paragraph separators, which some terminals break lines at. */
const SEPARATORS = /[\u2028\u2029]/g;

/** Printable ASCII only: nothing to do (the common case, once per table cell). */
const PLAIN = /^[\x20-\x7e]*$/;

const escapeBidi = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Neutralises escape sequences, control, bidi and invisible formatting characters; newlines and tabs become spaces. */
export function sanitizeForTerminal(s: string): string {
  if (PLAIN.test(s)) return s;
  return s
    .replace(ANSI, '')
    .replace(/[\t\n\r]/g, ' ')
    .replace(SEPARATORS, ' ')
    .replace(C0, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
    .replace(BIDI, escapeBidi);
}

/**
 * One line of stderr made of text from the service or a file (a reason, a risk level, an id): line
 * breaks are shown escaped (\n, \r), so nothing the text holds can start a line of its own (under
 * GITHUB_ACTIONS a line starting "::" is a workflow command), and the rest is made safe for a terminal.
 */
export function oneLine(s: string): string {
  return sanitizeForTerminal(s.replace(/\r/g, '\\r').replace(/\n/g, '\\n'));
}

/** Like sanitizeForTerminal but keeps newlines (for multi-line stderr text). */
export function sanitizeKeepNewlines(s: string): string {
  if (PLAIN.test(s)) return s;
  return s
    .replace(ANSI, '')
    .replace(/\r/g, '')
    .replace(SEPARATORS, ' ')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ')
    .replace(BIDI, escapeBidi);
}

/**
 * Spreadsheet formula injection: cells starting with = + - @ tab or CR are
 * prefixed with ' so they show as text. Plain numbers (-2, +1.5) stay numbers.
 */
export function guardCsvCell(s: string): string {
  if (!/^[=+\-@\t\r]/.test(s)) return s;
  if (/^[+-]?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(s)) return s;
  return `'${s}`;
}

/**
 * JSON text on its way to a terminal: JSON.stringify leaves C1 controls, bidi and invisible formatting
 * characters and the line separators as they are, and a terminal acts on them. They can only occur
 * inside strings, where \uXXXX is the same character: the document is unchanged, its display is safe.
 */
export function escapeJsonForTerminal(s: string): string {
  // The same invisible characters as BIDI (zero width space, word joiner, zero width no-break space among them).
  return s.replace(/[\u0080-\u009f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u200b\u2060\ufeff\u2028\u2029]/g, escapeBidi);
}
