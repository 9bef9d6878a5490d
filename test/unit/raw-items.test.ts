/**
 * scanItems (src/api/raw-items.ts) decides whether `score calc -o json|ndjson`
 * may pass the service's bytes through. It must be sound: whatever it accepts,
 * JSON.parse accepts too, with the same elements and supplierIds. These tests
 * hold it to JSON.parse on generated documents and on mutations of them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanItems, type RawItems } from '../../src/api/raw-items.js';

const scan = (text: string | Buffer) => scanItems(typeof text === 'string' ? Buffer.from(text, 'utf8') : text);

/** What JSON.parse makes of the body, in the scanner's terms; undefined when the scanner must not accept it. */
function reference(body: Buffer): Array<{ element: unknown; id: string }> | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return undefined;
  const items = (doc as { items?: unknown }).items;
  if (!Array.isArray(items)) return undefined;
  const out: Array<{ element: unknown; id: string }> = [];
  for (const el of items) {
    if (!el || typeof el !== 'object' || Array.isArray(el)) return undefined;
    const id = (el as { supplierId?: unknown }).supplierId;
    if (typeof id !== 'string') return undefined;
    out.push({ element: el, id });
  }
  return out;
}

/** Whether a parsed result has an overall score, as score calc reads it (hasScore). */
const hasScore = (el: unknown): boolean => {
  const score = (el as { score?: unknown }).score;
  if (score === null || typeof score !== 'object' || Array.isArray(score)) return false;
  const value = (score as { value?: unknown }).value;
  return value !== null && value !== undefined;
};

/** The scanner's answer, checked against JSON.parse: accepted means JSON.parse agrees element by element. */
function checkSound(body: Buffer): RawItems | undefined {
  const got = scanItems(body);
  if (got === undefined) return undefined;
  const want = reference(body);
  expect(want, `accepted, but JSON.parse disagrees: ${body.toString('utf8').slice(0, 200)}`).toBeDefined();
  expect(got.ids).toEqual(want!.map((w) => w.id));
  got.ids.forEach((_, k) => {
    const slice = body.subarray(got.ranges[2 * k]!, got.ranges[2 * k + 1]!).toString('utf8');
    expect(JSON.parse(slice)).toEqual(want![k]!.element);
    expect(slice).not.toMatch(/[\r\n]/);
    // "scored" is sound: never true where JSON.parse finds no overall score (an unknown supplier would pass unchecked).
    if (got.scored[k]) expect(hasScore(want![k]!.element), slice).toBe(true);
  });
  return got;
}

const result = fc.record(
  {
    supplierId: fc.string(),
    score: fc.oneof(
      fc.record({ value: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null)), other: fc.jsonValue() }, { requiredKeys: [] }),
      fc.jsonValue(),
    ),
    extra: fc.jsonValue(),
  },
  { requiredKeys: ['supplierId'] },
);
const envelope = fc.record({ items: fc.array(result, { maxLength: 6 }), other: fc.jsonValue() }, { requiredKeys: ['items'] });

describe('scanItems accepts what it should', () => {
  it('compact JSON.stringify output: every element, its bytes and its supplierId', () => {
    fc.assert(
      fc.property(envelope, (doc) => {
        const body = Buffer.from(JSON.stringify(doc));
        const got = checkSound(body);
        expect(got, body.toString()).toBeDefined();
        expect(got!.ids).toEqual(doc.items.map((r) => r.supplierId));
        // ...and complete on what JSON.stringify writes: every result with an overall score is known to have one.
        expect(got!.scored).toEqual(doc.items.map(hasScore));
      }),
      { numRuns: 500 },
    );
  });

  it('spaces and tabs between tokens, and line breaks outside the elements', () => {
    const body = ' {\n "items"\r\n : [ \n{ "supplierId" :\t"a" , "n" : [ 1 , -2.5e+3 , true , false , null ] } ,\r\n{"supplierId":"b"}\n] ,\n"page": {\n "next"\n:\n[ 2 ,\n{} ]\n} }\n';
    expect(checkSound(Buffer.from(body))!.ids).toEqual(['a', 'b']);
  });

  it('escapes in a supplierId are decoded; other strings keep their bytes', () => {
    const element = '{"supplierId":"\\u0030a\\"\\\\\\/\\n","name":"caf\\u00e9 \\ud83d\\ude00 ☕"}';
    const body = Buffer.from(`{"items":[${element}]}`);
    const got = checkSound(body)!;
    expect(got.ids).toEqual(['0a"\\/\n']);
    expect(body.subarray(got.ranges[0]!, got.ranges[1]!).toString('utf8')).toBe(element);
  });

  it('an empty items array, and items that is not the first key', () => {
    expect(checkSound(Buffer.from('{"items":[]}'))!.ids).toEqual([]);
    expect(checkSound(Buffer.from('{"a":{"items":1},"items":[{"supplierId":"x"}]}'))!.ids).toEqual(['x']);
  });

  it('the last supplierId of an element counts, as in JSON.parse', () => {
    expect(checkSound(Buffer.from('{"items":[{"supplierId":"a","supplierId":"b"}]}'))!.ids).toEqual(['b']);
  });
});

describe('scanItems refuses anything else (the caller then parses and validates)', () => {
  const refused: Array<[string, string | Buffer]> = [
    ['not JSON', 'hello'],
    ['truncated', '{"items":[{"supplierId":"a"}'],
    ['trailing bytes', '{"items":[]} x'],
    ['two documents', '{"items":[]}{"items":[]}'],
    ['a top-level array', '[{"supplierId":"a"}]'],
    ['no items', '{"results":[]}'],
    ['items not an array', '{"items":{"supplierId":"a"}}'],
    ['items twice', '{"items":[],"items":[]}'],
    ['an element that is not an object', '{"items":["a"]}'],
    ['an element without a supplierId', '{"items":[{"id":"a"}]}'],
    ['a supplierId that is not a string', '{"items":[{"supplierId":7}]}'],
    ['a supplierId overridden by a number', '{"items":[{"supplierId":"a","supplierId":null}]}'],
    ['a pretty-printed element', '{"items":[{\n  "supplierId": "a"\n}]}'],
    ['a trailing comma', '{"items":[{"supplierId":"a"},]}'],
    ['a trailing comma in an object', '{"items":[{"supplierId":"a",}]}'],
    ['a missing comma', '{"items":[{"supplierId":"a" "b":1}]}'],
    ['a missing colon', '{"items":[{"supplierId" "a"}]}'],
    ['a bare word', '{"items":[{"supplierId":"a","b":tru}]}'],
    ['NaN', '{"items":[{"supplierId":"a","b":NaN}]}'],
    ['a leading zero', '{"items":[{"supplierId":"a","b":01}]}'],
    ['a bare minus', '{"items":[{"supplierId":"a","b":-}]}'],
    ['a dot without digits', '{"items":[{"supplierId":"a","b":1.}]}'],
    ['an exponent without digits', '{"items":[{"supplierId":"a","b":1e}]}'],
    ['a raw control character in a string', '{"items":[{"supplierId":"a\tb"}]}'],
    ['a bad escape', '{"items":[{"supplierId":"a\\x"}]}'],
    ['a short \\u escape', '{"items":[{"supplierId":"\\u12"}]}'],
    ['mismatched brackets', '{"items":[{"supplierId":"a"]}]}'],
    ['a single-quoted string', "{'items':[]}"],
    ['invalid UTF-8', Buffer.concat([Buffer.from('{"items":[{"supplierId":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}]}')])],
    ['a byte-order mark', '\ufeff{"items":[]}'],
    ['an empty body', ''],
  ];
  for (const [what, body] of refused) {
    it(what, () => {
      expect(scan(body)).toBeUndefined();
    });
  }

  it('every control character (U+0000 to U+001F) raw inside a string, and none of the bytes next to them', () => {
    for (let c = 0; c < 0x20; c++) {
      expect(scan(`{"items":[{"supplierId":"a${String.fromCharCode(c)}b"}]}`), `0x${c.toString(16)}`).toBeUndefined();
    }
    for (const c of [0x20, 0x21, 0x23, 0x5b, 0x5d, 0x7f]) {
      expect(checkSound(Buffer.from(`{"items":[{"supplierId":"a${String.fromCharCode(c)}b"}]}`))?.ids, `0x${c.toString(16)}`).toEqual([`a${String.fromCharCode(c)}b`]);
    }
  });

  it('nesting: accepted up to the limit of 256 levels, refused beyond', () => {
    // The object, items and the element are three levels; the arrays inside make up the rest.
    const nested = (levels: number) => '{"items":[{"supplierId":"a","d":' + '['.repeat(levels) + ']'.repeat(levels) + '}]}';
    expect(checkSound(Buffer.from(nested(253)))?.ids).toEqual(['a']);
    expect(scan(nested(254))).toBeUndefined();
    expect(scan(nested(300))).toBeUndefined();
  });
});

describe('scanItems is sound on mutated documents', () => {
  // Characters that make or break JSON.
  const chars = ['"', '\\', '{', '}', '[', ']', ',', ':', ' ', '\n', '0', '1', '-', '+', '.', 'e', 't', 'n', 'u', 'x', '\u0001', 'é'];
  const mutation = fc.record({ at: fc.nat(), kind: fc.constantFrom('insert', 'replace', 'delete'), ch: fc.constantFrom(...chars) });
  it('whatever it accepts, JSON.parse accepts with the same elements and ids', () => {
    let accepted = 0;
    fc.assert(
      fc.property(envelope, fc.array(mutation, { minLength: 1, maxLength: 3 }), (doc, mutations) => {
        let text = JSON.stringify(doc);
        for (const m of mutations) {
          const at = m.at % (text.length + 1);
          text = m.kind === 'insert' ? text.slice(0, at) + m.ch + text.slice(at) : m.kind === 'replace' ? text.slice(0, at) + m.ch + text.slice(at + 1) : text.slice(0, at) + text.slice(at + 1);
        }
        if (checkSound(Buffer.from(text))) accepted++;
      }),
      { numRuns: 3000 },
    );
    // The mutations are not all fatal: the property did see accepted documents.
    expect(accepted).toBeGreaterThan(100);
  });
});

describe('scanItems: the overall score of each element', () => {
  it('reads the last score and its last value, as JSON.parse keeps them, whatever the size of the element', () => {
    const big = { type: 'x', filler: 'y'.repeat(5000) };
    const body = JSON.stringify({
      items: [
        { supplierId: 'a', score: { value: 1.5 } },
        { supplierId: 'b', score: {} },
        { supplierId: 'c', score: { value: null }, policyParameterScores: Array.from({ length: 20 }, () => big) },
        { supplierId: 'd' },
        { supplierId: 'e', score: null },
      ],
    });
    expect(checkSound(Buffer.from(body))!.scored).toEqual([true, false, false, false, false]);
    const dup = '{"items":[{"supplierId":"f","score":{"value":1},"score":{"dataSourcesScore":{"value":2}}},{"supplierId":"g","score":{"value":null,"value":0}}]}';
    expect(checkSound(Buffer.from(dup))!.scored).toEqual([false, true]);
    // A key spelled with an escape is not recognised: the supplier is looked up, never passed unchecked.
    expect(checkSound(Buffer.from('{"items":[{"supplierId":"h","score":{"val\\u0075e":1}}]}'))!.scored).toEqual([false]);
  });
});
