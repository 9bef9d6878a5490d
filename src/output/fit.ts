/**
 * Fits a table to the terminal width by priority, the way GitHub's CLI does
 * (see docs: README "Output formats"):
 * 1. columns that must stay whole (ids, codes, dates, numbers, states, URLs)
 *    keep their natural width;
 * 2. when the row is too wide, low-value columns are hidden first, highest
 *    hide rank first (a column the same in every row, when allowed, before
 *    any ranked one); `--wide` hides nothing;
 * 3. on a narrow terminal, when the text would get fewer than 10 cells more
 *    than its narrowest, the columns without a rank go too, from the right,
 *    all but the first (the id) and the first text column (the name), and
 *    never a pinned one (named with --fields; a --query or srs api table's);
 * 4. only then is long text cut: a text column shorter than its fair share of
 *    what is left keeps its width, the others share the rest equally, and
 *    what is left over goes back to them in order.
 * When even the id and the name (with the text at its narrowest) do not fit,
 * the line is left longer than the terminal, text whole up to the terminal's
 * width: a wrapped line can still be copied, a cut id cannot.
 */

export interface FitColumn {
  /** Display width of the widest cell, header included. */
  natural: number;
  /** May be cut (long text). Everything else is never cut. */
  flexible: boolean;
  /** Hide rank: may be hidden to fit, rank 1 first, then 2, ... */
  hide?: number | undefined;
  /** Hidden before any ranked column when every row has the same value. */
  constant?: boolean | undefined;
  /** Never hidden for room (a column the user named with --fields, or one of a --query or srs api table). */
  pinned?: boolean | undefined;
}

export interface Fit {
  /** Indexes of the columns shown, in their original order. */
  shown: number[];
  /** Width of each shown column (same order as shown). */
  widths: number[];
  /** Indexes of the hidden columns, in the order they were hidden. */
  hidden: number[];
}

/** A cut text column keeps at least this many cells (or its natural width when that is less). */
export const MIN_TEXT_WIDTH = 6;

/** Width kept free for text when hiding whole columns at a narrow width, beyond its narrowest (names readable). */
const MIN_USEFUL_TEXT = 10;

export function fitColumns(cols: readonly FitColumn[], width: number | undefined, gap: number, wide = false): Fit {
  let shown = cols.map((_, i) => i);
  const hidden: number[] = [];
  const total = (idx: number[]): number => idx.reduce((a, i) => a + cols[i]!.natural, 0) + gap * Math.max(0, idx.length - 1);
  if (width === undefined || width <= 0) return { shown, widths: shown.map((i) => cols[i]!.natural), hidden };

  if (!wide) {
    const rank = (i: number): number => (cols[i]!.constant ? 0 : (cols[i]!.hide ?? Number.POSITIVE_INFINITY));
    // Rank 1 first, then 2, ...; among equals, the rightmost first.
    const order = shown.filter((i) => rank(i) !== Number.POSITIVE_INFINITY).sort((a, b) => rank(a) - rank(b) || b - a);
    for (const i of order) {
      if (total(shown) <= width) break;
      shown = shown.filter((j) => j !== i);
      hidden.push(i);
    }
    // Still too wide with the text at its narrowest (a terminal of 30-60 columns): the columns without a rank go
    // too, from the right, all but the first (the id a person copies) and the first text column (the name), so
    // that the line fits instead of wrapping at 80 (or names cut to stubs while COUNTRY and STATE stayed).
    const narrowest = (idx: number[]): number =>
      idx.reduce((a, i) => a + (cols[i]!.flexible ? Math.min(cols[i]!.natural, MIN_TEXT_WIDTH) : cols[i]!.natural), 0) + gap * Math.max(0, idx.length - 1);
    const keep = new Set([shown[0], shown.find((i) => cols[i]!.flexible)]);
    // Room for text beyond its narrowest, when there is text to give it to (a name cut to 6 reads as nothing).
    const wanted = Math.min(MIN_USEFUL_TEXT, shown.reduce((a, i) => a + (cols[i]!.flexible ? Math.max(0, cols[i]!.natural - MIN_TEXT_WIDTH) : 0), 0));
    for (const i of [...shown].reverse()) {
      if (narrowest(shown) + wanted <= width) break;
      if (keep.has(i) || cols[i]!.pinned) continue;
      shown = shown.filter((j) => j !== i);
      hidden.push(i);
    }
  }

  const widths = new Map(shown.map((i) => [i, cols[i]!.natural]));
  const budget = width - gap * Math.max(0, shown.length - 1);
  const fixed = shown.filter((i) => !cols[i]!.flexible).reduce((a, i) => a + cols[i]!.natural, 0);
  const flex = shown.filter((i) => cols[i]!.flexible);
  // --wide: every column at its natural width (cutting names to 5 characters kept the line too wide all the same).
  // So too when the whole columns with the text at its narrowest still overflow: the line wraps either way, and
  // cut names (a 60-character customer id left "Long …" in a 114-wide row) lose what a person needs for nothing.
  const narrowest = fixed + flex.reduce((a, i) => a + Math.min(cols[i]!.natural, MIN_TEXT_WIDTH), 0) + gap * Math.max(0, shown.length - 1);
  if (!wide && flex.length > 0 && narrowest > width) {
    // Even so, no text column is wider than the terminal: a --query table's nested objects (a scorecard's items as
    // JSON, 1,000 columns) made every line a screenful.
    for (const i of flex) widths.set(i, Math.min(cols[i]!.natural, Math.max(MIN_TEXT_WIDTH, width)));
  } else if (!wide && total(shown) > width && flex.length > 0) {
    let avail = budget - fixed;
    let pending = flex.slice();
    // Short text keeps its natural width when it is under its fair share.
    for (;;) {
      const share = Math.floor(Math.max(0, avail) / pending.length);
      const short = pending.filter((i) => cols[i]!.natural <= share);
      if (short.length === 0 || short.length === pending.length) break;
      for (const i of short) avail -= cols[i]!.natural;
      pending = pending.filter((i) => !short.includes(i));
    }
    const share = Math.floor(Math.max(0, avail) / pending.length);
    let left = Math.max(0, avail) - share * pending.length;
    for (const i of pending) {
      const extra = left > 0 && share < cols[i]!.natural ? 1 : 0;
      left -= extra;
      widths.set(i, Math.max(Math.min(cols[i]!.natural, MIN_TEXT_WIDTH), Math.min(cols[i]!.natural, share + extra)));
    }
  }
  return { shown, widths: shown.map((i) => widths.get(i)!), hidden };
}
