/**
 * Tables for people: display widths, cutting, and the borderless aligned tables
 * src/output/render.ts writes under -o table.
 *
 * A module of its own, imported dynamically by render.ts, because string-width
 * builds an Intl.Segmenter when it loads, and the first Intl object of a process
 * initialises ICU: ~14% of the samples of a `srs supplier get -o json`, which
 * never measures a width. With src/api/paginate.ts's NumberFormat made on first
 * use too (the other 13%), the median lookup went from 268 to 165 ms (11
 * alternating pairs with `node -e 0`, load average ~3.7).
 * test/integration/lookup-startup.test.ts fails if a lookup loads string-width again.
 */
import stringWidth from 'string-width';
import type { Column, ColumnKind } from './columns.js';
import { cellText, getPath } from './fields.js';
import { fitColumns } from './fit.js';
import { sanitizeForTerminal } from './sanitize.js';

/** What a table needs of RenderOptions: defined here, as src/output/render.ts loads this module (importing it back would be a cycle). */
export interface TableOptions {
  color: boolean;
  /** Terminal width for tables (undefined when not a TTY). */
  width?: number | undefined;
  /** Show every column, even when the table is too wide for `width` (--wide). */
  wide?: boolean | undefined;
  /** Where a table says which columns it hid to fit (stderr, silenced by --quiet). */
  note?: ((message: string) => void) | undefined;
  /** Paint headers (chalk instance or identity). */
  paintHeader?: ((s: string) => string) | undefined;
  /** Masks secrets in a cell before it is cut to width (Context.redact). */
  redact?: ((s: string) => string) | undefined;
  /** The columns --fields named (the user's choice: none is hidden for being a URL). */
  fields?: Column[] | undefined;
  /** A terminal whose locale is not UTF-8: blanks are "-" and cuts end in "~" (as score explain's pictures do). */
  ascii?: boolean | undefined;
}

const ellipsisOf = (opts: TableOptions): string => (opts.ascii ? '~' : '…');

/** What a table shows for a value the service left out or sent as null (CSV leaves the cell empty). */
export const BLANK = '—';

/**
 * The widest cell a table shows, in display columns, with or without a terminal: cli-table3's layout takes time that
 * grows with the square of a cell's width (a 48,000-column name of wide characters took 24 s piped, deaf to Ctrl-C,
 * which cannot interrupt synchronous work). Longer text is cut, said once; -o json and -o csv keep it whole.
 */
export const MAX_TABLE_CELL = 4_000;
const noted = new WeakSet<TableOptions>();

function tableCell(v: unknown, row: unknown, c: Column, opts: TableOptions): string {
  const raw = c.format ? c.format(v, row) : cellText(v);
  if (raw === '' && (v === null || v === undefined)) return opts.ascii ? '-' : BLANK;
  // Masked before any cut to width: a key cut short is no longer found by the redaction of the written text.
  let text = sanitizeForTerminal(opts.redact ? opts.redact(raw) : raw);
  // The blanks and cuts that column formatters write themselves (score calc's RISK, check's SCORE): ASCII too.
  if (opts.ascii && /[—…]/.test(text)) text = text.replace(/—/g, '-').replace(/…/g, '~');
  if (text.length <= MAX_TABLE_CELL / 2 || displayWidth(text) <= MAX_TABLE_CELL) return text;
  if (!noted.has(opts)) {
    noted.add(opts);
    opts.note?.(`a value wider than ${MAX_TABLE_CELL.toLocaleString('en-US')} columns (${c.header}) is cut in this table; -o json or -o csv shows it whole`);
  }
  return cutToWidth(text, MAX_TABLE_CELL, ellipsisOf(opts));
}

const BORDERLESS = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '',
  right: '', 'right-mid': '', middle: '  ',
};

/** Display width: wide characters count two cells (string-width); plain ASCII is its length. */
export function displayWidth(s: string): number {
  return /^[\x20-\x7e]*$/.test(s) ? s.length : stringWidth(s);
}

let segmenter: Intl.Segmenter | undefined;
function* graphemes(s: string): Generator<string> {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (const { segment } of segmenter.segment(s)) yield segment;
}

/** Cuts text to a display width, ending in "…" when anything was cut. */
export function cutToWidth(s: string, width: number, ellipsis = '…'): string {
  if (displayWidth(s) <= width) return s;
  return prefixOfWidth(s, width - 1, false) + ellipsis;
}

/**
 * The longest prefix of `s` whose display width is at most `width`, in whole grapheme clusters (an emoji ZWJ sequence,
 * a letter with a combining accent: cut by code point, a family of four lost two people and kept a dangling joiner);
 * `atLeastOne`: the first cluster even when it is wider. ASCII needs no segmenter (ICU's first use costs ~10 ms).
 */
function prefixOfWidth(s: string, width: number, atLeastOne: boolean): string {
  let out = '';
  let w = 0;
  for (const ch of /^[\x20-\x7e]*$/.test(s) ? s : graphemes(s)) {
    const cw = displayWidth(ch);
    if (w + cw > width && (out !== '' || !atLeastOne)) break;
    out += ch;
    w += cw;
  }
  return out;
}

/** How many lines a long text value takes at most in a detail view (verticalTable). */
const DETAIL_LINES = 4;

/**
 * Text wrapped to a display width at spaces (a word longer than the width is cut across lines), at most `maxLines`
 * lines, the last one cut with the ellipsis when text is left over (`cut`).
 */
export function wrapToWidth(s: string, width: number, maxLines: number, ellipsis = '…'): { lines: string[]; cut: boolean } {
  if (displayWidth(s) <= width) return { lines: [s], cut: false };
  const lines: string[] = [];
  let rest = s;
  while (rest !== '' && lines.length < maxLines - 1) {
    if (displayWidth(rest) <= width) break;
    // The longest prefix that fits, then back to its last space when there is one.
    let fit = prefixOfWidth(rest, width, true);
    const space = fit.lastIndexOf(' ');
    if (space > 0 && rest[fit.length] !== ' ') fit = fit.slice(0, space);
    lines.push(fit.trimEnd());
    rest = rest.slice(fit.length).trimStart();
  }
  const cut = displayWidth(rest) > width;
  if (rest !== '') lines.push(cutToWidth(rest, width, ellipsis));
  return { lines, cut };
}

/** A column's kind when its definition gives none (--fields, --query, `srs api`): from its path, then its values. */
export function inferKind(path: string, values: readonly unknown[]): ColumnKind {
  const last = path.split('.').at(-1) ?? path;
  if (/^(id|code)$|(Id|Ids|Code|Codes)$/.test(last)) return 'id';
  if (/(Date|At)$/.test(last)) return 'date';
  if (/^(status|state|type|scope|riskLevel|hierarchyLevel|length)$|Type$/.test(last)) return 'state';
  const present = values.filter((v) => v !== null && v !== undefined && v !== '');
  if (present.length > 0 && present.every((v) => typeof v === 'number' || typeof v === 'boolean')) return 'number';
  if (present.length > 0 && present.every((v) => typeof v === 'string' && /^[0-9a-hjkmnp-tv-z]{26}$/i.test(v))) return 'id';
  // A URL, or a list of them (--fields articles.url): never cut.
  const isUrl = (v: unknown): boolean => typeof v === 'string' && /^https?:\/\/\S+$/.test(v);
  if (present.length > 0 && present.every((v) => isUrl(v) || (Array.isArray(v) && v.length > 0 && v.every(isUrl)))) return 'url';
  return 'text';
}

async function table(head: string[] | undefined, rows: string[][], aligns: Array<'left' | 'right'>, widths: number[], ellipsis = '…'): Promise<string> {
  const { default: Table } = await import('cli-table3');
  // cli-table3 copies its rows with push.apply, which overflows the stack past
  // ~150,000 rows: lay the rows out in chunks with the same fixed widths.
  let out = '';
  for (let i = 0; i === 0 || i < rows.length; i += TABLE_CHUNK_ROWS) {
    const t = new Table({
      ...(head && i === 0 ? { head } : {}),
      chars: BORDERLESS,
      style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
      colAligns: aligns,
      colWidths: widths,
      wordWrap: false,
      truncate: ellipsis,
    });
    // Cells are cut here (cutToWidth: whole grapheme clusters, by display width): cli-table3's own cut split an
    // emoji's surrogate pair (a name of 😀 printed "😀😀\uFFFD…").
    for (const r of rows.slice(i, i + TABLE_CHUNK_ROWS)) t.push(r.map((cell, ci) => (widths[ci] !== undefined && cell.length > widths[ci]! / 2 && displayWidth(cell) > widths[ci]! ? cutToWidth(cell, widths[ci]!, ellipsis) : cell)));
    const text = t.toString();
    if (text) out += text.split('\n').map((l) => l.trimEnd()).join('\n') + '\n';
  }
  return out;
}

const TABLE_CHUNK_ROWS = 10_000;
const GAP = 2;

/** The widest cell of each column, header included. A loop, not Math.max(...rows): spreading one argument per row overflows the stack. */
function naturalWidths(head: string[] | undefined, rows: string[][], n: number): number[] {
  const w = new Array<number>(n).fill(1);
  if (head) for (let i = 0; i < n; i++) w[i] = Math.max(w[i]!, displayWidth(head[i]!));
  for (const r of rows) for (let i = 0; i < n; i++) w[i] = Math.max(w[i]!, displayWidth(r[i]!));
  return w;
}

/**
 * A borderless aligned table (like gh): headers, then one line per row, numbers
 * right-aligned. Fitted to the terminal by priority (src/output/fit.ts): ids,
 * codes, dates, numbers and states whole; low-value columns hidden first (said
 * once through opts.note); then long text cut with "…".
 */
/**
 * The note of a table that hid columns, itself within `width` columns: as many hidden headers as fit are
 * named, the rest counted ("hid CREATED, GROUP and 3 more to fit 80 columns; ...").
 */
export function hiddenNote(what: string[], width: number): string {
  const named = (k: number, tail: string): string => `hid ${what.slice(0, k).join(', ')}${k < what.length ? ` and ${what.length - k} more` : ''}${tail}`;
  // Every header with the reason; then as many headers as fit, without it; then only the count.
  const whole = named(what.length, ` to fit ${width} columns; --wide shows every column`);
  if (displayWidth(whole) <= width) return whole;
  for (let k = what.length - 1; k > 0; k--) {
    const line = named(k, '; --wide shows every column');
    if (displayWidth(line) <= width) return line;
  }
  // A header with its explanation ("TYPE (policy_parameter_item in every row)") may be what does not fit: the
  // headers alone say more than a bare count.
  const bare = what.map((w) => w.replace(/ \(.*\)$/, ''));
  if (bare.some((b, i) => b !== what[i])) {
    const short = hiddenNote(bare, width);
    if (!/^hid \d+ columns?\b/.test(short)) return short;
  }
  const n = `${what.length} column${what.length === 1 ? '' : 's'}`;
  for (const line of [`hid ${n} to fit ${width} columns; --wide shows every column`, `hid ${n}; --wide shows every column`]) if (displayWidth(line) <= width) return line;
  return `hid ${n}; see --wide`;
}

export async function horizontalTable(rows: unknown[], cols: Column[], opts: TableOptions): Promise<string> {
  if (rows.length === 0) return '';
  const grouped = await groupedTable(rows, cols, opts);
  if (grouped !== undefined) return grouped;
  const paint = opts.color && opts.paintHeader ? opts.paintHeader : (s: string) => s;
  const raw = rows.map((r) => cols.map((c) => getPath(r, c.path)));
  const cells = rows.map((r, ri) => cols.map((c, ci) => tableCell(raw[ri]![ci], r, c, opts)));
  const head = cols.map((c) => c.header);
  const natural = naturalWidths(head, cells, cols.length);
  const kinds = cols.map((c, ci) => c.kind ?? inferKind(c.path, raw.map((r) => r[ci])));
  const constant = cols.map((c, ci) => !!c.hideIfConstant && rows.length > 1 && cells.every((r) => r[ci] === cells[0]![ci]));
  const fit = fitColumns(
    // A column with no curated kind that holds URLs (srs api, --query) is hidden before text is cut: a cut URL is useless.
    // Columns named with --fields are the user's choice: none of them is hidden for being a URL, nor to make room for
    // the name (pinned), and neither is a column of a --query or srs api table (no curated kind: what was asked for).
    cols.map((c, i) => ({ natural: natural[i]!, flexible: kinds[i] === 'text', hide: c.hide ?? (c.kind === undefined && kinds[i] === 'url' && !opts.fields ? 100 : undefined), constant: constant[i], pinned: !!opts.fields || c.kind === undefined })),
    opts.width,
    GAP,
    !!opts.wide,
  );
  if (fit.hidden.length && opts.note && opts.width !== undefined) {
    const what = fit.hidden.map((i) => (constant[i] ? `${cols[i]!.header} (${cells[0]![i] || 'empty'} in every row)` : cols[i]!.header));
    opts.note(hiddenNote(what, opts.width));
  }
  const pick = <T>(xs: T[]): T[] => fit.shown.map((i) => xs[i]!);
  // Numbers right-aligned also in a column srs has no layout for (--query, srs api): their digits line up.
  const out = await table(pick(head), cells.map(pick), pick(cols.map((c, i) => c.align ?? (kinds[i] === 'number' ? 'right' : 'left'))), fit.widths, ellipsisOf(opts));
  if (!opts.color) return out;
  const nl = out.indexOf('\n');
  return paint(out.slice(0, nl)) + out.slice(nl);
}

/**
 * A table whose `group` column would make it wider than the terminal, laid
 * out without that column, with a heading line ("SUPPLIER 01h…") above each
 * run of rows sharing its value (and a blank line between runs). Undefined
 * when there is no such column, no width, --wide, a single value (the column
 * is then hidden as constant), or the table fits as it is.
 */
async function groupedTable(rows: unknown[], cols: Column[], opts: TableOptions): Promise<string | undefined> {
  const gi = cols.findIndex((c) => c.group);
  if (gi < 0 || opts.width === undefined || opts.width <= 0 || opts.wide) return undefined;
  const g = cols[gi]!;
  const values = rows.map((r) => tableCell(getPath(r, g.path), r, g, opts));
  if (values.every((v) => v === values[0])) return undefined;
  const natural = naturalWidths(cols.map((c) => c.header), rows.map((r) => cols.map((c) => tableCell(getPath(r, c.path), r, c, opts))), cols.length);
  if (natural.reduce((a, w) => a + w, 0) + GAP * (cols.length - 1) <= opts.width) return undefined;
  const body = await horizontalTable(rows, cols.filter((_, i) => i !== gi), opts);
  const paint = opts.color && opts.paintHeader ? opts.paintHeader : (s: string) => s;
  const lines = body.split('\n');
  const out = [lines[0]!];
  for (let i = 0; i < rows.length; i++) {
    if (i === 0 || values[i] !== values[i - 1]) {
      if (i > 0) out.push('');
      out.push(`${paint(g.header)} ${values[i]}`);
    }
    out.push(lines[i + 1]!);
  }
  return out.join('\n') + '\n';
}

/**
 * One record as FIELD  value lines. Values of text fields are cut to the
 * terminal width; ids, codes, dates, numbers and states never are (a longer
 * line wraps instead). --wide cuts nothing (it cut a supplier's long name all the same).
 */
export async function verticalTable(item: unknown, cols: Column[], opts: TableOptions): Promise<string> {
  const paint = opts.color && opts.paintHeader ? opts.paintHeader : (s: string) => s;
  // A blank value reads "—", as a missing one does (an empty CATEGORIES printed nothing beside AVG SCORE's "—").
  let rows = cols.map((c) => [c.header, tableCell(getPath(item, c.path), item, c, opts) || (opts.ascii ? '-' : BLANK)] as [string, string]);
  if (opts.width !== undefined && opts.width > 0 && !opts.wide) {
    const headW = naturalWidths(undefined, rows, 2)[0]!;
    const budget = Math.max(opts.width - headW - GAP, 10);
    // One item has room to spare below it: long text wraps at spaces onto lines of its own under its value (a
    // 160-character name was cut to its first 60), up to DETAIL_LINES lines, the last cut when still longer.
    rows = rows.flatMap((r, i) => {
      const c = cols[i]!;
      if ((c.kind ?? inferKind(c.path, [getPath(item, c.path)])) !== 'text') return [r];
      const { lines, cut } = wrapToWidth(r[1], budget, DETAIL_LINES, ellipsisOf(opts));
      if (cut) opts.note?.(`${c.header} is longer than ${DETAIL_LINES} lines here and cut; -o json or --wide shows it whole`);
      return lines.map((l, k) => [k === 0 ? r[0] : '', l] as [string, string]);
    });
  }
  const widths = naturalWidths(undefined, rows, 2);
  const out = await table(undefined, rows, ['left', 'left'], widths, ellipsisOf(opts));
  if (!opts.color) return out;
  const w = Math.max(...cols.map((c) => c.header.length));
  return out
    .split('\n')
    .map((l) => (l ? paint(l.slice(0, w)) + l.slice(w) : l))
    .join('\n');
}
