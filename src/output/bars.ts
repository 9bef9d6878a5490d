/**
 * Horizontal bars for the terminal: a diverging bar on the score scale
 * (-3..+3, centred on 0) and a magnitude bar (0..max). Unicode block
 * characters where the locale is UTF-8, plain ASCII elsewhere or on request.
 * Pure functions: colour is applied by the caller's paint; text widths are
 * measured as tables measure them (names may hold wide characters).
 */
import { cutToWidth, displayWidth } from './table.js';
import { isUtf8Locale } from '../util/locale.js';

export { isUtf8Locale };

type Env = Readonly<Record<string, string | undefined>>;

export interface Glyphs {
  full: string;
  /** A half cell at the outer end of a bar growing left / right (empty: no half cells). */
  halfLeft: string;
  halfRight: string;
  /** Eighths 1..7 of a cell for magnitude bars (left-aligned). */
  eighths: readonly string[];
  track: string;
  axis: string;
  ellipsis: string;
  /** Shown for a missing number. */
  none: string;
}

export const UNICODE: Glyphs = { full: '█', halfLeft: '▐', halfRight: '▌', eighths: ['▏', '▎', '▍', '▌', '▋', '▊', '▉'], track: '·', axis: '│', ellipsis: '…', none: '—' };
export const ASCII: Glyphs = { full: '#', halfLeft: '', halfRight: '', eighths: [], track: ' ', axis: '|', ellipsis: '~', none: '-' };


export function glyphsFor(env: Env, forceAscii: boolean): Glyphs {
  return !forceAscii && isUtf8Locale(env) ? UNICODE : ASCII;
}

export interface DivergingBar {
  /** Cells left of the axis (the negative side). */
  left: string;
  axis: string;
  /** Cells right of the axis (the positive side). */
  right: string;
}

/**
 * A bar for `value` on [-limit, +limit] with `half` cells on each side of the
 * axis, to the nearest half cell. null (no score) draws the empty track.
 * Values outside the scale are clamped.
 */
export function divergingBar(value: number | null, half: number, g: Glyphs, limit = 3): DivergingBar {
  const trackL = g.track.repeat(half);
  if (value === null || !Number.isFinite(value) || value === 0) return { left: trackL, axis: g.axis, right: g.track.repeat(half) };
  // Unicode draws half cells; ASCII has no half glyph, so it rounds to whole cells.
  const step = g.halfLeft && g.halfRight ? 1 : 2;
  const halves = step * Math.min(Math.round((2 * half) / step), Math.round(((Math.min(Math.abs(value), limit) / limit) * 2 * half) / step));
  const full = Math.floor(halves / 2);
  const odd = halves % 2 === 1;
  const used = full + (odd ? 1 : 0);
  if (value < 0) {
    const body = (odd ? g.halfLeft : '') + g.full.repeat(full);
    return { left: g.track.repeat(half - used) + body, axis: g.axis, right: g.track.repeat(half) };
  }
  const body = g.full.repeat(full) + (odd ? g.halfRight : '');
  return { left: trackL, axis: g.axis, right: body + g.track.repeat(half - used) };
}

/** The bar as one string, the filled part painted by `paint` (red below 0, green above, say). */
export function paintDiverging(bar: DivergingBar, value: number | null, paint: { neg: (s: string) => string; pos: (s: string) => string }, g: Glyphs): string {
  if (value === null || value === 0) return bar.left + bar.axis + bar.right;
  const split = (s: string, fromEnd: boolean) => {
    // The track is a prefix (negative side) or a suffix (positive side) of one glyph.
    let i = 0;
    if (fromEnd) {
      while (s.startsWith(g.track, i)) i += g.track.length;
      return s.slice(0, i) + paint.neg(s.slice(i));
    }
    let j = s.length;
    while (j > 0 && s.slice(0, j).endsWith(g.track)) j -= g.track.length;
    return paint.pos(s.slice(0, j)) + s.slice(j);
  };
  return value < 0 ? split(bar.left, true) + bar.axis + bar.right : bar.left + bar.axis + split(bar.right, false);
}

/** A scale line for a diverging bar of `half` cells per side: "-3" under the left end, "0" under the axis, "+3" under the right. */
export function divergingScale(half: number, limit = 3): string {
  const lo = `-${limit}`;
  const hi = `+${limit}`;
  const width = 2 * half + 1;
  const chars = Array.from({ length: width }, () => ' ');
  chars.splice(0, lo.length, ...lo);
  chars[half] = '0';
  chars.splice(width - hi.length, hi.length, ...hi);
  return chars.join('');
}

/** A bar of `value` on [0, max] in `width` cells, to the nearest eighth (Unicode) or cell (ASCII). */
export function magnitudeBar(value: number, max: number, width: number, g: Glyphs): string {
  if (!(max > 0) || !(value > 0) || !Number.isFinite(value)) return '';
  const ratio = Math.min(1, value / max);
  const steps = g.eighths.length ? 8 : 1;
  let units = Math.round(ratio * width * steps);
  if (units === 0) units = 1; // a positive value is never invisible
  const full = Math.floor(units / steps);
  const rest = units % steps;
  return g.full.repeat(full) + (rest ? g.eighths[rest - 1]! : '');
}

/** Display width of a text (wide characters count 2): the tables' own measure. */
export const textWidth = displayWidth;

/** Cuts `s` to at most `width` display columns, ending with the glyphs' ellipsis when cut (as tables cut text). */
export function fitText(s: string, width: number, g: Glyphs): string {
  if (width <= 0) return '';
  const cut = cutToWidth(s, width);
  return cut === s || g.ellipsis === '…' ? cut : cut.slice(0, -1) + g.ellipsis;
}

/** Pads `s` with spaces to `width` display columns (left-aligned, or right-aligned). */
export function pad(s: string, width: number, align: 'left' | 'right' = 'left'): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(s)));
  return align === 'left' ? s + fill : fill + s;
}
