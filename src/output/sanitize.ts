/**
 * Text from the service is untrusted: a supplier name or news title could carry
 * terminal escape sequences that rewrite the screen. Tables show it through
 * these functions; JSON keeps the data exact (JSON.stringify escapes control
 * characters itself).
 */

// ESC-introduced sequences (CSI, OSC, DCS, single-char), C1 controls, and C0 controls.
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[PX^_][^\u001b]*(?:\u001b\\)?|[@-Z\\-_])|[\u0080-\u009f]/g;
// eslint-disable-next-line no-control-regex
const C0 = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** Neutralises escape sequences and control characters; newlines and tabs become spaces. */
export function sanitizeForTerminal(s: string): string {
  return s.replace(ANSI, '').replace(/[\t\n\r]/g, ' ').replace(C0, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** Like sanitizeForTerminal but keeps newlines (for multi-line stderr text). */
export function sanitizeKeepNewlines(s: string): string {
  return s.replace(ANSI, '').replace(/\r/g, '').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ');
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
