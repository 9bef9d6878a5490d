/**
 * Row -> supplier creation request: the ONE validator of an import, used by
 * the dry run and the real run alike, so both reject exactly the same rows
 * before anything is sent. A row is:
 * - invalid: SupplierInput (the schema `srs supplier create` uses) rejects it;
 * - duplicate: its customerSupplierId already appeared on an earlier line (the
 *   first line that carries an id owns it, valid or not, so fixing that line
 *   later can never create the id twice);
 * - valid: the request to send.
 *
 * Cells are trimmed; an empty cell means the field is absent. Multi-valued
 * cells (industry codes, category ids) split on ";" or "|", and on "," when the
 * file's delimiter is not ",".
 */
import type { SupplierCreateRequest } from '../api/contract.js';
import { formatPath, markCheckedSupplierBody } from '../api/contract.js';
import { SupplierInput } from '../api/supplier-input.js';
import * as z from 'zod/mini';
import type { ColumnMapping, Field } from './headers.js';
import type { SourceRecord } from './read.js';
import { hash64 } from './hash.js';

export function listSeparator(delimiter: string): RegExp {
  return delimiter === ',' ? /[;|]/ : /[;|,]/;
}

export interface RowShape {
  mapping: ColumnMapping;
  listSplit: RegExp;
  delimiter: string;
}

export function rowShape(mapping: ColumnMapping, delimiter: string): RowShape {
  return { mapping, listSplit: listSeparator(delimiter), delimiter };
}

function cell(fields: readonly string[], shape: RowShape, f: Field): string | undefined {
  const i = shape.mapping.index[f];
  if (i === undefined) return undefined;
  const v = fields[i];
  if (v === undefined) return undefined;
  const t = v.trim();
  if (t === '') return undefined;
  // Excel's ="00125" (a formula that keeps leading zeros, what ERP exports write for ids) is its text, 00125: it was
  // sent as ="00125", a second supplier beside the 00125 of another export.
  const text = excelText(t);
  if (text !== undefined) return text.trim() || undefined;
  return t;
}

/**
 * The text of Excel's text idiom ="00125" (a string literal, which runs nothing), or undefined for any other cell.
 * One comparison of two characters a cell. A lone quote inside is not the idiom's text (Excel doubles it).
 */
export function excelText(t: string): string | undefined {
  if (t.charCodeAt(0) !== 61 || t.charCodeAt(1) !== 34 || t.length < 3 || t.charCodeAt(t.length - 1) !== 34) return undefined;
  const inner = t.slice(2, -1);
  return inner.replace(/""/g, '').includes('"') ? undefined : inner.replace(/""/g, '"');
}

function list(v: string | undefined, split: RegExp): string[] | undefined {
  if (v === undefined) return undefined;
  const out: string[] = [];
  for (const part of v.split(split)) {
    const t = part.trim();
    if (t !== '' && !out.includes(t)) out.push(t);
  }
  return out.length ? out : undefined;
}

/** The request body a row stands for, before validation. */
export function rowToBody(fields: readonly string[], shape: RowShape): Record<string, unknown> {
  const body: Record<string, unknown> = { name: cell(fields, shape, 'name') ?? '' };
  const country = cell(fields, shape, 'countryIso3Code');
  if (country !== undefined) body.countryIso3Code = country;
  const website = cell(fields, shape, 'website');
  if (website !== undefined) body.website = website;
  const industries = list(cell(fields, shape, 'industryCodes'), shape.listSplit);
  if (industries) body.industryCodes = industries;
  const categories = list(cell(fields, shape, 'categoryIds'), shape.listSplit);
  if (categories) body.categoryIds = categories;
  const email = cell(fields, shape, 'contactEmail');
  const firstName = cell(fields, shape, 'contactFirstName');
  const lastName = cell(fields, shape, 'contactLastName');
  if (email !== undefined || firstName !== undefined || lastName !== undefined) {
    // Filled in place (no spread of a temporary object per field): the same keys, in the same order.
    const contact: Record<string, string> = {};
    if (email !== undefined) contact.email = email;
    if (firstName !== undefined) contact.firstName = firstName;
    if (lastName !== undefined) contact.lastName = lastName;
    body.contacts = [contact];
  }
  const cid = cell(fields, shape, 'customerSupplierId');
  if (cid !== undefined) body.customerSupplierId = cid;
  return body;
}

/** The file column an issue path comes from (contacts[0].email -> contactEmail). */
function fieldOfPath(path: ReadonlyArray<PropertyKey>): Field | undefined {
  const [a, , c] = path;
  switch (a) {
    case 'name':
    case 'countryIso3Code':
    case 'website':
    case 'customerSupplierId':
    case 'industryCodes':
    case 'categoryIds':
      return a;
    case 'contacts':
      return c === 'email' ? 'contactEmail' : c === 'firstName' ? 'contactFirstName' : c === 'lastName' ? 'contactLastName' : undefined;
    default:
      return undefined;
  }
}

export type RowCheck =
  | { ok: true; request: SupplierCreateRequest }
  | { ok: false; field: string; message: string };

/**
 * SupplierInput compiled by zod (z.compile, zod 4.6+): a clone of the same schema whose parse first
 * runs a function zod generated for it and, for any input that function does not pass, the
 * ordinary parser, so invalid rows get SupplierInput's own issues and messages. Compiled on first
 * use (a dry run or a real import; never for other commands). 1.3 vs 2.25 µs per valid row
 * (SupplierInput.safeParse, 200,000 rows, microbenchmark under load, 2026-11-23; zod's JIT object
 * parser alone gave 1.9). test/unit/import-validate-compiled.test.ts checks that zod still compiles it
 * (strict) and that it gives SupplierInput's exact results and messages.
 */
let rowSchema: typeof SupplierInput | undefined;
export function rowSchemaOf(): typeof SupplierInput {
  rowSchema ??= z.compile(SupplierInput);
  return rowSchema;
}

/** Validates one row with SupplierInput (compiled: rowSchemaOf). */
export function validateRow(fields: readonly string[], shape: RowShape): RowCheck {
  const r = rowSchemaOf().safeParse(rowToBody(fields, shape));
  if (r.success) return { ok: true, request: markCheckedSupplierBody(r.data) };
  const parts: string[] = [];
  let first = '';
  for (const issue of r.error.issues) {
    const path = formatPath(issue.path);
    if (!first) first = path;
    const f = fieldOfPath(issue.path);
    const col = f !== undefined ? shape.mapping.columns[shape.mapping.index[f] ?? -1]?.header : undefined;
    const where = col !== undefined && col !== path ? `${path} (column "${col}")` : path;
    parts.push(`${where}: ${issue.message}`);
  }
  return { ok: false, field: first, message: parts.join('; ') };
}

export type Verdict =
  | { kind: 'valid'; line: number; customerSupplierId: string | undefined; request: SupplierCreateRequest }
  | { kind: 'invalid'; line: number; customerSupplierId: string | undefined; field: string; message: string }
  | { kind: 'duplicate'; line: number; customerSupplierId: string; firstLine: number };


/**
 * customerSupplierId -> first line, in typed arrays: an open-addressing table
 * of 64-bit hashes (linear probing, load factor at most 1/2). 12 bytes a slot:
 * a million ids take 24 MB (a Map of the strings took about 85 MB of heap and
 * pushed the 1M-row dry run past 200 MB of RSS).
 */
export class FirstLineTable {
  #hi: Uint32Array;
  #lo: Uint32Array;
  /** Line + 1 (0 marks an empty slot). */
  #line: Uint32Array;
  #size = 0;

  constructor(capacity = 1 << 12) {
    this.#hi = new Uint32Array(capacity);
    this.#lo = new Uint32Array(capacity);
    this.#line = new Uint32Array(capacity);
  }

  get size(): number {
    return this.#size;
  }

  /** The first line recorded for `key`; records `line` (and returns undefined) when there is none. */
  firstOrSet(key: string, line: number): number | undefined {
    const [hi, lo] = hash64(key);
    const found = this.#probe(hi, lo);
    if (this.#line[found] !== 0) return this.#line[found]! - 1;
    this.#hi[found] = hi;
    this.#lo[found] = lo;
    this.#line[found] = line + 1;
    if (++this.#size * 2 > this.#line.length) this.#grow();
    return undefined;
  }

  #probe(hi: number, lo: number): number {
    const mask = this.#line.length - 1;
    let i = (lo ^ Math.imul(hi, 0x9e3779b1)) & mask;
    while (this.#line[i] !== 0 && (this.#hi[i] !== hi || this.#lo[i] !== lo)) i = (i + 1) & mask;
    return i;
  }

  #grow(): void {
    const [hi, lo, line] = [this.#hi, this.#lo, this.#line];
    const n = line.length * 2;
    this.#hi = new Uint32Array(n);
    this.#lo = new Uint32Array(n);
    this.#line = new Uint32Array(n);
    for (let i = 0; i < line.length; i++) {
      if (line[i] === 0) continue;
      const j = this.#probe(hi[i]!, lo[i]!);
      this.#hi[j] = hi[i]!;
      this.#lo[j] = lo[i]!;
      this.#line[j] = line[i]!;
    }
  }
}

/** Names and ids are one line: a line break in one is a quoted cell that ran on (a quote left open?), never a supplier's name. */
export const ONE_LINE_FIELDS = ['name', 'customerSupplierId'] as const satisfies readonly Field[];
export const breaksLine = (v: string | null | undefined): boolean => typeof v === 'string' && /[\r\n]/.test(v);

function lineBreakField(fields: readonly string[], shape: RowShape): { field: string; message: string } | undefined {
  for (const f of ONE_LINE_FIELDS) {
    const v = cell(fields, shape, f);
    if (!breaksLine(v)) continue;
    const col = shape.mapping.columns[shape.mapping.index[f] ?? -1]?.header;
    const where = col !== undefined && col !== f ? `${f} (column "${col}")` : f;
    return { field: f, message: `${where} contains a line break: a name or id is one line (a quoted cell left open runs on into the next line)` };
  }
  // Any other cell (a contact name, a column not imported) may hold a line break (an address, a note), but not a quote
  // and a line with a whole row's worth of separators: those are rows that a quote left open ran into (with relaxed
  // quotes a later quote closed it), and they were silently never imported (exit 0, "Rows are never merged or dropped").
  const named = shape.mapping.columns.filter((c) => c.source !== 'empty').length;
  if (named > 1) {
    for (let i = 0; i < fields.length; i++) {
      const v = fields[i];
      // The mark of rows swallowed: a quote inside the cell (the later quote that closed it kept the one before it), as
      // well as a line break. An address or a note over two lines, commas and all, has none.
      if (!breaksLine(v) || !v!.includes('"')) continue;
      const rows = v!.split(/\r\n|\n|\r/).slice(1).filter((l) => l.split(shape.delimiter).length >= named).length;
      if (!rows) continue;
      const col = shape.mapping.columns[i]?.header || `column ${i + 1}`;
      return {
        field: col,
        message: `column "${col}" runs on over ${rows === 1 ? 'a line' : `${rows} lines`} with a whole row's separators: rows that a quote left open ran into (close or remove the quote; those rows were not read as rows)`,
      };
    }
  }
  return undefined;
}

/** The stateful part of validation: remembers the first line of each customerSupplierId (see FirstLineTable). */
export class RowValidator {
  readonly shape: RowShape;
  readonly #firstLine = new FirstLineTable();

  constructor(shape: RowShape) {
    this.shape = shape;
  }

  /** The row's customerSupplierId cell, trimmed (undefined when empty or not mapped). */
  customerSupplierId(rec: SourceRecord): string | undefined {
    return cell(rec.fields, this.shape, 'customerSupplierId');
  }

  check(rec: SourceRecord): Verdict {
    const cid = cell(rec.fields, this.shape, 'customerSupplierId');
    const firstLine = cid !== undefined ? this.#firstLine.firstOrSet(cid, rec.line) : undefined;
    const broken = lineBreakField(rec.fields, this.shape);
    if (broken) return { kind: 'invalid', line: rec.line, customerSupplierId: cid, field: broken.field, message: broken.message };
    const r = validateRow(rec.fields, this.shape);
    if (!r.ok) return { kind: 'invalid', line: rec.line, customerSupplierId: cid, field: r.field, message: r.message };
    if (firstLine !== undefined) return { kind: 'duplicate', line: rec.line, customerSupplierId: cid!, firstLine };
    return { kind: 'valid', line: rec.line, customerSupplierId: cid, request: r.request };
  }
}
