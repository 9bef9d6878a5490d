import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { ALIASES, FIELDS, fieldForHeader, mapHeaders, normalizeHeader, parseMapSpecs } from '../../src/import/headers.js';

describe('header normalisation and aliases', () => {
  it('drops case, spaces, underscores, hyphens and dots', () => {
    expect(normalizeHeader('Supplier_Name')).toBe('suppliername');
    expect(normalizeHeader(' Customer-Supplier.Id ')).toBe('customersupplierid');
    expect(normalizeHeader('\uFEFFName')).toBe('name');
  });

  it.each([
    ['name', 'name'],
    ['Supplier Name', 'name'],
    ['VENDOR NAME', 'name'],
    ['Company', 'name'],
    ['country', 'countryIso3Code'],
    ['Country Code', 'countryIso3Code'],
    ['ISO3', 'countryIso3Code'],
    ['countryIso3Code', 'countryIso3Code'],
    ['Website', 'website'],
    ['URL', 'website'],
    ['Homepage', 'website'],
    ['Customer Supplier ID', 'customerSupplierId'],
    ['Vendor ID', 'customerSupplierId'],
    ['external_id', 'customerSupplierId'],
    ['Supplier Number', 'customerSupplierId'],
    ['customerSupplierId', 'customerSupplierId'],
    ['Industry Codes', 'industryCodes'],
    ['industry', 'industryCodes'],
    ['GICS', 'industryCodes'],
    ['Category IDs', 'categoryIds'],
    ['categories', 'categoryIds'],
    ['Contact Email', 'contactEmail'],
    ['E-Mail', 'contactEmail'],
    ['email', 'contactEmail'],
    ['First Name', 'contactFirstName'],
    ['Contact First Name', 'contactFirstName'],
    ['last_name', 'contactLastName'],
    ['Contact Last Name', 'contactLastName'],
  ])('%s -> %s', (header, field) => {
    expect(fieldForHeader(header)).toBe(field);
  });

  it('knows nothing about other columns', () => {
    expect(fieldForHeader('Payment Terms')).toBeUndefined();
    expect(fieldForHeader('Name 2')).toBeUndefined();
    expect(fieldForHeader('id')).toBeUndefined();
  });

  it('has aliases for every field and no alias twice', () => {
    for (const f of FIELDS) expect(ALIASES[f].length).toBeGreaterThan(0);
  });
});

describe('--map', () => {
  it('parses "Header=field" (split at the last "="), aliases and ignore', () => {
    expect(parseMapSpecs(['Lieferant=name', 'A=B=supplier name', 'Junk=ignore', 'Land=country code'])).toEqual([
      { header: 'Lieferant', target: 'name' },
      { header: 'A=B', target: 'name' },
      { header: 'Junk', target: 'ignore' },
      { header: 'Land', target: 'countryIso3Code' },
    ]);
  });

  it('rejects a missing "=" and unknown fields', () => {
    expect(() => parseMapSpecs(['Lieferant'])).toThrow(UsageError);
    expect(() => parseMapSpecs(['Lieferant=colour'])).toThrow(/unknown field "colour"/);
  });

  it('refuses one column given two targets (the last one won in silence); the same target twice is one', () => {
    expect(() => parseMapSpecs(['Kreditor=customerSupplierId', 'kreditor=ignore'])).toThrow('--map gives column "kreditor" two targets, customerSupplierId and ignore: give one');
    expect(() => parseMapSpecs(['Lieferant=name', 'Lieferant=customerSupplierId'])).toThrow(/two targets, name and customerSupplierId/);
    expect(parseMapSpecs(['Lieferant=name', 'Lieferant=supplier name'])).toHaveLength(2);
  });
});

describe('mapHeaders', () => {
  it('maps by alias and warns once per column that is not imported', () => {
    const m = mapHeaders(['Vendor ID', 'Vendor Name', 'Payment Terms', '', 'Country']);
    expect(m.index).toEqual({ customerSupplierId: 0, name: 1, countryIso3Code: 4 });
    expect(m.warnings).toHaveLength(1);
    expect(m.warnings[0]).toContain('"Payment Terms" is not a supplier field');
    expect(m.columns[3]!.source).toBe('empty');
  });

  it('an explicit --map wins over an alias, and the loser is named', () => {
    const m = mapHeaders(['Name', 'Legal Entity', 'Vendor ID'], parseMapSpecs(['legal entity=name']));
    expect(m.index.name).toBe(1);
    expect(m.warnings).toEqual(['column "Name" is not imported: name comes from "Legal Entity" (--map)']);
  });

  it('ignore silences a column', () => {
    const m = mapHeaders(['name', 'Payment Terms', 'customer id'], parseMapSpecs(['payment terms=ignore']));
    expect(m.warnings).toEqual([]);
  });

  it('"customer id" (srs\'s own words) is customerSupplierId; a file without such a column is warned about, since the catalog cannot guard it', () => {
    expect(mapHeaders(['name', 'Customer ID']).index.customerSupplierId).toBe(1);
    expect(mapHeaders(['name', 'creditor_number']).index.customerSupplierId).toBe(1);
    // Beside a column that gives it for sure, "Customer ID" (a vendor export's own customer number) is not imported.
    const both = mapHeaders(['Name', 'Vendor ID', 'Customer ID', 'Country']);
    expect(both.index.customerSupplierId).toBe(1);
    expect(both.warnings).toEqual(['column "Customer ID" is not imported: customerSupplierId comes from "Vendor ID" ("Customer ID" gives it only when no other column does; --map "Customer ID=customerSupplierId" takes it instead)']);
    const none = mapHeaders(['name', 'country']);
    expect(none.index.customerSupplierId).toBeUndefined();
    expect(none.warnings).toEqual([expect.stringMatching(/^no column gives customerSupplierId .*: the catalog cannot recognise these suppliers when another file or a later export holds them again, so that import would create them again/)]);
  });

  it('two columns for one field is an error that suggests the fix', () => {
    expect(() => mapHeaders(['Name', 'Company'])).toThrow(/columns "Name", "Company" all map to name: keep one with --map, e.g. --map "Company=ignore"/);
    // Two columns of one name: --map would ignore both (and drop the field), so the advice is to rename one.
    expect(() => mapHeaders(['Vendor Name', 'Country', 'Vendor ID', 'Country'])).toThrow(/columns "Country", "Country" all map to countryIso3Code: --map cannot tell columns of the same name apart .*rename one of them/);
    expect(() => mapHeaders(['Name', 'E-Mail', 'Email'])).toThrow(/rename one of them/);
  });

  it('no name column: UsageError naming the columns found', () => {
    let err: unknown;
    try {
      mapHeaders(['Vendor ID', 'Country', '']);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).exitCode).toBe(2);
    expect((err as Error).message).toContain('columns found: "Vendor ID", "Country"');
  });

  it('--map naming a column the file lacks is an error', () => {
    expect(() => mapHeaders(['name'], parseMapSpecs(['Lieferant=name']))).toThrow(/no column "Lieferant"/);
  });
});
