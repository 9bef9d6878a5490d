import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { describeZodError, SupplierCreateRequest } from '../../src/api/contract.js';
import { iso3CountryCodes, isIso3CountryCode, SupplierInput } from '../../src/api/supplier-input.js';
import { mapHeaders, parseMapSpecs } from '../../src/import/headers.js';
import { hash64 } from '../../src/import/hash.js';
import { FirstLineTable, listSeparator, rowShape, rowToBody, RowValidator, validateRow } from '../../src/import/validate.js';

describe('SupplierInput', () => {
  it('has exactly the officially assigned (ISO 3166-1) cca3 codes of world-countries: 249, not Kosovo\'s user-assigned UNK', () => {
    const wc = createRequire(import.meta.url)('world-countries') as Array<{ cca3: string; status: string }>;
    expect([...iso3CountryCodes()].sort()).toEqual(wc.filter((c) => c.status === 'officially-assigned').map((c) => c.cca3).sort());
    expect(iso3CountryCodes().size).toBe(249);
    expect(isIso3CountryCode('deu')).toBe(true);
    expect(isIso3CountryCode('XKX')).toBe(false);
    expect(isIso3CountryCode('UNK')).toBe(false);
  });

  it('upper-cases and trims the country before checking it', () => {
    expect(SupplierInput.parse({ name: 'A', countryIso3Code: ' deu ' })).toEqual({ name: 'A', countryIso3Code: 'DEU' });
  });

  it.each([
    ['DE', 'did you mean DEU?'],
    ['ZZZ', 'is not an ISO 3166-1 alpha-3 country code'],
    ['D3U', 'is not an ISO 3166-1 alpha-3'],
    ['DEUT', 'is not an ISO 3166-1 alpha-3'],
  ])('rejects country %s', (c, msg) => {
    const r = SupplierInput.safeParse({ name: 'A', countryIso3Code: c });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.message).toContain(msg);
    expect(r.error!.issues[0]!.path).toEqual(['countryIso3Code']);
  });

  it('website: an http(s) URI', () => {
    expect(SupplierInput.safeParse({ name: 'A', website: 'https://example.com/x?y' }).success).toBe(true);
    expect(SupplierInput.safeParse({ name: 'A', website: 'http://example.com' }).success).toBe(true);
    // Tabs and line breaks are refused, not dropped as WHATWG parsing does (http://exa\r\nmple.com was sent as example.com).
    for (const w of ['www.example.com', 'javascript:alert(1)', 'mailto:a@b.co', 'ftp://x.example', 'https://example.com/a b', 'http://exa\r\nmple.com/p\tq', 'http://a\rb', 'http://a\nb.example']) {
      const r = SupplierInput.safeParse({ name: 'A', website: w });
      expect(r.success, w).toBe(false);
      expect(r.error!.issues[0]!.message).toContain('is not an http(s) URI');
    }
  });

  it('contact email must be well-formed', () => {
    expect(SupplierInput.safeParse({ name: 'A', contacts: [{ email: 'jane@example.com' }] }).success).toBe(true);
    expect(SupplierInput.safeParse({ name: 'A', contacts: [{ email: 'jane@' }] }).success).toBe(false);
  });

  it('keeps the contract rules and its strictness; its output is a valid SupplierCreateRequest', () => {
    expect(SupplierInput.safeParse({ name: '' }).success).toBe(false);
    expect(SupplierInput.safeParse({ name: 'x'.repeat(256) }).success).toBe(false);
    expect(SupplierInput.safeParse({ name: 'A', extra: 1 }).success).toBe(false);
    const out = SupplierInput.parse({ name: 'A', countryIso3Code: 'fra', industryCodes: ['30202010'], customerSupplierId: 'c' });
    expect(SupplierCreateRequest.parse(out)).toEqual(out);
  });

  it('industry codes are 8 digits, checked before anything is sent; one bad check failing twice is one problem', () => {
    for (const code of ['1', '30202010, 30202030', '3020201a']) {
      const r = SupplierInput.safeParse({ name: 'A', industryCodes: [code] });
      expect(r.success, code).toBe(false);
      expect(r.error!.issues[0]!.message).toMatch(/an industry code is 8 digits/);
    }
    const w = SupplierInput.safeParse({ name: 'A', website: 'example.com' });
    expect(describeZodError(w.error!, 'supplier')).not.toMatch(/and 1 more/);
  });
});

const shapeOf = (header: string[], delimiter = ',', maps: string[] = []) => rowShape(mapHeaders(header, parseMapSpecs(maps)), delimiter);

describe('row -> request', () => {
  const header = ['Name', 'Country', 'Website', 'Industry', 'Categories', 'Email', 'First Name', 'Last Name', 'Vendor ID'];

  it('trims cells, drops empty ones and builds one contact', () => {
    const body = rowToBody([' Acme ', 'deu', '', '', '', 'a@acme.example', ' Ann ', '', ' V1 '], shapeOf(header));
    expect(body).toEqual({ name: 'Acme', countryIso3Code: 'deu', contacts: [{ email: 'a@acme.example', firstName: 'Ann' }], customerSupplierId: 'V1' });
  });

  it('Excel\'s ="00125" (text that keeps its leading zeros) is its text; anything else like it is left as it is', () => {
    const body = rowToBody(['="Acme"', '="deu"', '', '="30202010"', '', '', '', '', '="00125"'], shapeOf(header));
    expect(body).toEqual({ name: 'Acme', countryIso3Code: 'deu', industryCodes: ['30202010'], customerSupplierId: '00125' });
    expect(rowToBody(['="Say ""hi"""', '', '', '', '', '', '', '', ' ="" '], shapeOf(header))).toEqual({ name: 'Say "hi"' });
    // Not the idiom: a lone quote inside, no closing quote, a formula.
    for (const v of ['="a"b"', '="abc', '=A1']) expect(rowToBody(['N', '', '', '', '', '', '', '', v], shapeOf(header)).customerSupplierId).toBe(v);
  });

  it('splits multi-valued cells on ; and |, and on , unless the file is comma-delimited', () => {
    expect(listSeparator(',').test(',')).toBe(false);
    expect(listSeparator(';').test(',')).toBe(true);
    const row = ['A', '', '', '10;20| 30 ;;20', 'c1, c2', '', '', '', ''];
    expect(rowToBody(row, shapeOf(header, ','))).toMatchObject({ industryCodes: ['10', '20', '30'], categoryIds: ['c1, c2'] });
    expect(rowToBody(row, shapeOf(header, ';'))).toMatchObject({ industryCodes: ['10', '20', '30'], categoryIds: ['c1', 'c2'] });
  });

  it('a short row is missing its trailing fields; a missing name is "must not be empty"', () => {
    expect(rowToBody(['Acme'], shapeOf(header))).toEqual({ name: 'Acme' });
    const r = validateRow(['', 'DEU'], shapeOf(header));
    expect(r).toEqual({ ok: false, field: 'name', message: 'name (column "Name"): name must not be empty' });
  });

  it('takes every address the document allows (email is a string): international, quoted, address literals; refuses what is none', () => {
    const emailHeader = ['name', 'email'];
    for (const email of ['jürgen@rhein-giesserei.de', 'josé@example.com', 'jane@例え.jp', '"john doe"@example.com', 'a@[127.0.0.1]', 'jane@localhost']) {
      const r = validateRow(['Mail Co', email], shapeOf(emailHeader));
      expect(r.ok, email).toBe(true);
    }
    for (const email of ['not-an-email', 'n/a', 'a@', '@example.com', 'a b@example.com', 'a@b@c']) {
      const r = validateRow(['Mail Co', email], shapeOf(emailHeader));
      expect(r.ok, email).toBe(false);
      if (!r.ok) expect(r.message).toContain('expected an email address');
    }
  });

  it('names the file column of a failing field, and every failing field', () => {
    const r = validateRow(['', 'XX', 'nope', '', '', 'bad', '', '', ''], shapeOf(header));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.field).toBe('name');
    expect(r.message).toContain('countryIso3Code (column "Country"): "XX" is not an ISO 3166-1 alpha-3 country code');
    expect(r.message).toContain('website (column "Website"): "nope" is not an http(s) URI');
    expect(r.message).toContain('contacts[0].email (column "Email"): expected an email address');
  });
});

describe('RowValidator', () => {
  it('reports later uses of a customerSupplierId as duplicates of the first line, valid or not', () => {
    const v = new RowValidator(shapeOf(['name', 'country', 'vendor id']));
    expect(v.check({ line: 2, fields: ['A', 'DEU', 'X'] }).kind).toBe('valid');
    expect(v.check({ line: 3, fields: ['B', 'DEU', 'X'] })).toMatchObject({ kind: 'duplicate', firstLine: 2 });
    expect(v.check({ line: 4, fields: ['C', 'XX', 'Y'] }).kind).toBe('invalid');
    expect(v.check({ line: 5, fields: ['D', 'DEU', 'Y'] })).toMatchObject({ kind: 'duplicate', firstLine: 4, customerSupplierId: 'Y' });
    expect(v.check({ line: 6, fields: ['E', 'XX', 'X'] }).kind).toBe('invalid'); // invalid wins over duplicate
    expect(v.check({ line: 7, fields: ['F', 'DEU', ''] }).kind).toBe('valid');
    expect(v.check({ line: 8, fields: ['G', 'DEU', ''] }).kind).toBe('valid');
  });
  it('a cell of any column that runs on over whole rows (a quote left open) makes the row invalid; a note with a line break does not', () => {
    const v = new RowValidator(shapeOf(['Supplier Name', 'Country', 'Supplier Number', 'Contact Last Name'], ';'));
    const swallowed = v.check({ line: 2, fields: ['Merge A', 'DEU', 'MG1', 'Weiß\r\nMerge B;FRA;MG2;Dupont\r\nMerge C;ITA;MG3;"Rossi'] });
    expect(swallowed).toMatchObject({ kind: 'invalid', field: 'Contact Last Name' });
    expect((swallowed as { message: string }).message).toContain('column "Contact Last Name" runs on over 2 lines with a whole row\'s separators');
    // A column not imported at all, too.
    const notes = new RowValidator(shapeOf(['name', 'country', 'vendor id', 'notes'], ',', ['notes=ignore']));
    expect(notes.check({ line: 2, fields: ['A', 'DEU', 'V1', '12 inch pipes\nB,FRA,V2,"ok'] }).kind).toBe('invalid');
    expect(notes.check({ line: 3, fields: ['C', 'DEU', 'V3', 'first line\nsecond line, with a comma'] }).kind).toBe('valid');
    // An address or a note over two lines, as many commas as a row and all, is a cell (no quote left inside it).
    expect(notes.check({ line: 4, fields: ['D', 'GBR', 'V4', 'Unit 4\nRiverside Park, 12 Mill Lane, Leeds, LS1 4AB'] }).kind).toBe('valid');
    expect(notes.check({ line: 5, fields: ['E', 'GBR', 'V5', 'Met Bob,\nAlice, and Carol, agreed terms.'] }).kind).toBe('valid');
  });
});

describe('FirstLineTable', () => {
  it('remembers the first line of each key across growth', () => {
    const t = new FirstLineTable(4);
    for (let i = 0; i < 50_000; i++) expect(t.firstOrSet(`id-${i}`, i + 2)).toBeUndefined();
    expect(t.size).toBe(50_000);
    for (let i = 0; i < 50_000; i += 997) expect(t.firstOrSet(`id-${i}`, 999_999)).toBe(i + 2);
    expect(t.firstOrSet('', 7)).toBeUndefined();
    expect(t.firstOrSet('', 8)).toBe(7);
  });

  it('hash64 spreads similar keys', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200_000; i++) seen.add(hash64(`V${String(i).padStart(8, '0')}`).join(':'));
    expect(seen.size).toBe(200_000);
    expect(hash64('ab')).not.toEqual(hash64('ba'));
  });
});
