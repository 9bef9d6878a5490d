/**
 * Reads a response body of the shape `{ ..., "items": [ {...}, ... ], ... }`
 * without building its objects: it checks that the bytes are well-formed JSON
 * (the grammar of RFC 8259, and UTF-8) and returns where each element of the
 * top-level `items` array starts and ends, with the element's top-level
 * `supplierId`.
 *
 * `score calc -o json|ndjson` uses it to pass the service's own bytes through,
 * in input order, instead of parsing and re-serialising ~6 KB of JSON per
 * supplier. It is sound, not complete: it returns undefined for anything it is
 * not sure of (not JSON, another shape, an element spread over several lines,
 * an element without a string supplierId, nesting deeper than MAX_DEPTH), and
 * the caller then parses and validates the body the ordinary way, which either
 * reports the problem or handles the case.
 */
import { isUtf8 } from 'node:buffer';

export interface RawItems {
  /** [start, end) byte offsets of each element, two numbers per element. */
  ranges: number[];
  /** Each element's top-level supplierId (the last one, as JSON.parse would keep). */
  ids: string[];
}

const MAX_DEPTH = 256;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJ = 0x7b;
const CLOSE_OBJ = 0x7d;
const OPEN_ARR = 0x5b;
const CLOSE_ARR = 0x5d;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;

// What the scanner expects next.
const VALUE = 0;
const VALUE_OR_CLOSE = 1; // just after '['
const KEY = 2; // after ',' in an object
const KEY_OR_CLOSE = 3; // just after '{'
const COMMA_OR_CLOSE = 4;

const ITEMS = Buffer.from('"items"');
const SUPPLIER_ID = Buffer.from('"supplierId"');
const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');
const NULL = Buffer.from('null');

/** Escapes allowed after a backslash: " \ / b f n r t (u is handled apart). */
const SIMPLE_ESCAPE = new Uint8Array(256);
for (const c of '"\\/bfnrt') SIMPLE_ESCAPE[c.charCodeAt(0)] = 1;
const HEX = new Uint8Array(256);
for (const c of '0123456789abcdefABCDEF') HEX[c.charCodeAt(0)] = 1;

function equalsAt(b: Uint8Array, start: number, end: number, word: Uint8Array): boolean {
  if (end - start !== word.length) return false;
  for (let k = 0; k < word.length; k++) if (b[start + k] !== word[k]) return false;
  return true;
}

const isDigit = (c: number | undefined): boolean => c !== undefined && c >= ZERO && c <= NINE;

/** Parses the items of a response body; undefined when the body is anything but well-formed JSON of the expected shape. */
export function scanItems(b: Buffer): RawItems | undefined {
  if (!isUtf8(b)) return undefined;
  const n = b.length;
  const ranges: number[] = [];
  const ids: string[] = [];
  // Container kinds, innermost last: 1 object, 2 array.
  const stack = new Uint8Array(MAX_DEPTH + 1);
  let depth = 0;
  let want = VALUE;
  // The top-level value must be an object whose "items" is an array of objects.
  let itemsKey = false; // the key just read (depth 1) is "items"
  let itemsSeen = false;
  let inItems = false; // inside the items array (it is the container at depth 2)
  let idKey = false; // the key just read (depth 3, inside an element) is "supplierId"
  let elemStart = -1;
  let elemId: string | undefined;
  let i = 0;
  while (i < n) {
    const c = b[i]!;
    if (c <= SPACE) {
      if (c === SPACE || c === TAB) {
        i++;
        continue;
      }
      if (c !== LF && c !== CR) return undefined;
      // Inside an element, a line break would break "one element per line": let the caller re-serialise.
      if (inItems && depth >= 3) return undefined;
      i++;
      continue;
    }
    if (want === KEY || want === KEY_OR_CLOSE) {
      if (c === QUOTE) {
        const end = stringEnd(b, i);
        if (end < 0) return undefined;
        if (depth === 1) itemsKey = equalsAt(b, i, end, ITEMS);
        else if (depth === 3 && inItems) idKey = equalsAt(b, i, end, SUPPLIER_ID);
        // The colon, usually right after the key.
        i = skipSpace(b, end);
        if (b[i] !== COLON) return undefined;
        i++;
        want = VALUE;
        continue;
      }
      if (c !== CLOSE_OBJ || want !== KEY_OR_CLOSE) return undefined;
      // an empty object: a close, below
    } else if (want === COMMA_OR_CLOSE) {
      if (c === COMMA) {
        i++;
        want = stack[depth] === 1 ? KEY : VALUE;
        continue;
      }
      if (c !== CLOSE_OBJ && c !== CLOSE_ARR) return undefined;
      // a close, below
    } else if (c !== CLOSE_ARR || want !== VALUE_OR_CLOSE) {
      // A value.
      const id = depth === 3 && idKey && inItems;
      if (depth === 1) {
        if (itemsKey) {
          // The value of "items": an array, once.
          if (c !== OPEN_ARR || itemsSeen) return undefined;
          itemsSeen = true;
          inItems = true;
          itemsKey = false;
        }
      } else if (depth === 2 && inItems) {
        // An element of items: an object.
        if (c !== OPEN_OBJ) return undefined;
        elemStart = i;
        elemId = undefined;
      } else if (depth === 3) {
        idKey = false;
        if (id && c !== QUOTE) elemId = undefined; // a supplierId that is not a string
      }
      if (c === OPEN_OBJ || c === OPEN_ARR) {
        if ((depth === 0 && c !== OPEN_OBJ) || depth === MAX_DEPTH) return undefined;
        stack[++depth] = c === OPEN_OBJ ? 1 : 2;
        want = c === OPEN_OBJ ? KEY_OR_CLOSE : VALUE_OR_CLOSE;
        i++;
        continue;
      }
      if (depth === 0) return undefined; // a scalar top-level value
      let end: number;
      if (c === QUOTE) {
        end = stringEnd(b, i);
        if (end < 0) return undefined;
        if (id) elemId = decodeString(b, i, end);
      } else {
        end = c === MINUS || (c >= ZERO && c <= NINE) ? numberEnd(b, i) : c === 0x74 ? literalEnd(b, i, TRUE) : c === 0x66 ? literalEnd(b, i, FALSE) : c === 0x6e ? literalEnd(b, i, NULL) : -1;
        if (end < 0) return undefined;
      }
      i = end;
      // The comma, usually right after the value.
      if (b[i] === COMMA) {
        i++;
        want = stack[depth] === 1 ? KEY : VALUE;
      } else {
        want = COMMA_OR_CLOSE;
      }
      continue;
    }
    // A close: '}' or ']' matching the innermost container.
    if ((c === CLOSE_OBJ ? 1 : 2) !== stack[depth]) return undefined;
    if (inItems && depth <= 3) {
      if (depth === 3) {
        if (elemId === undefined) return undefined;
        ranges.push(elemStart, i + 1);
        ids.push(elemId);
      } else {
        inItems = false;
      }
    }
    depth--;
    i++;
    if (depth === 0) {
      // The end of the top-level object: only whitespace may follow.
      if (!onlyWhitespaceFrom(b, i) || !itemsSeen) return undefined;
      return { ranges, ids };
    }
    want = COMMA_OR_CLOSE;
  }
  return undefined; // the body ended inside the top-level value
}

/** Skips spaces and tabs (a line break stops it: see the line-break rule above). */
function skipSpace(b: Uint8Array, i: number): number {
  while (b[i] === SPACE || b[i] === TAB) i++;
  return i;
}

function onlyWhitespaceFrom(b: Uint8Array, i: number): boolean {
  for (; i < b.length; i++) {
    const c = b[i];
    if (c !== SPACE && c !== TAB && c !== LF && c !== CR) return false;
  }
  return true;
}

/** The index just past the closing quote of the string starting at `start`, or -1 if malformed. */
function stringEnd(b: Uint8Array, start: number): number {
  const n = b.length;
  let i = start + 1;
  for (;;) {
    while (i < n) {
      const d = b[i]!;
      // Plain: a space, '!', or anything above the quote but the backslash (UTF-8 bytes included).
      if (d > QUOTE ? d === BACKSLASH : d < SPACE || d === QUOTE) break;
      i++;
    }
    if (i >= n) return -1;
    const c = b[i]!;
    if (c === QUOTE) return i + 1;
    if (c !== BACKSLASH) return -1; // control characters must be escaped
    const e = b[i + 1];
    if (e !== undefined && SIMPLE_ESCAPE[e]) {
      i += 2;
    } else if (e === 0x75 && i + 5 < n && HEX[b[i + 2]!] && HEX[b[i + 3]!] && HEX[b[i + 4]!] && HEX[b[i + 5]!]) {
      i += 6; // \uXXXX
    } else {
      return -1;
    }
  }
}

function decodeString(b: Buffer, start: number, end: number): string {
  for (let i = start + 1; i < end - 1; i++) if (b[i] === BACKSLASH) return JSON.parse(b.toString('utf8', start, end)) as string;
  return b.toString('utf8', start + 1, end - 1);
}

/** The index just past a JSON number starting at `start`, or -1 if malformed. */
function numberEnd(b: Uint8Array, start: number): number {
  let i = start;
  if (b[i] === MINUS) i++;
  if (b[i] === ZERO) i++;
  else if (isDigit(b[i])) while (isDigit(b[i])) i++;
  else return -1;
  if (b[i] === DOT) {
    i++;
    if (!isDigit(b[i])) return -1;
    while (isDigit(b[i])) i++;
  }
  if (b[i] === 0x65 || b[i] === 0x45) {
    i++;
    if (b[i] === PLUS || b[i] === MINUS) i++;
    if (!isDigit(b[i])) return -1;
    while (isDigit(b[i])) i++;
  }
  return i;
}

/** Past the end of the body, b[k] is undefined and never equals a byte of the word. */
function literalEnd(b: Uint8Array, start: number, word: Uint8Array): number {
  return equalsAt(b, start, start + word.length, word) ? start + word.length : -1;
}
