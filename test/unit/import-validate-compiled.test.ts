import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { SupplierInput } from '../../src/api/supplier-input.js';
import { rowSchemaOf, validateRow, rowShape } from '../../src/import/validate.js';

// The import validates rows with SupplierInput compiled by zod (src/import/validate.ts, rowSchemaOf).
// This guards the trick against a zod upgrade: zod must still compile SupplierInput (not hand the
// schema back unchanged), and the compiled clone must give exactly SupplierInput's verdicts, data
// and messages.
describe('rowSchemaOf (SupplierInput compiled by zod)', () => {
  it('is a compiled clone that zod accepts without falling back', () => {
    expect(() => z.compile(SupplierInput, { strict: true })).not.toThrow();
    expect(rowSchemaOf()).not.toBe(SupplierInput);
    expect(rowSchemaOf()).toBe(rowSchemaOf());
    expect(rowSchemaOf()._zod.def.shape).toBe(SupplierInput._zod.def.shape);
  });

  const valid = { name: 'Acme, Ltd', countryIso3Code: ' deu ', website: 'https://acme.example.com', industryCodes: ['30202010'], contacts: [{ email: 'a@acme.example.com', firstName: 'Ann', lastName: 'Lee' }], customerSupplierId: 'V1' };
  const bodies: unknown[] = [
    valid,
    { name: 'Only a name' },
    { ...valid, countryIso3Code: 'DE' },
    { ...valid, countryIso3Code: 'XYZ' },
    { ...valid, website: 'javascript:alert(1)' },
    { ...valid, website: 'not a url' },
    { ...valid, contacts: [{ email: 'nope' }] },
    { ...valid, name: '' },
    { ...valid, name: 'x'.repeat(256) },
    { ...valid, customerSupplierId: 'y'.repeat(256) },
    { ...valid, industryCodes: [''] },
    { ...valid, unexpected: 1 },
    { name: 3, countryIso3Code: 7, contacts: 'x' },
    null,
    'a string',
  ];

  it.each(bodies.map((b, i) => [i, b] as const))('body %i: the same result, data and issues as SupplierInput', (_i, body) => {
    const mini = SupplierInput.safeParse(body);
    const compiled = rowSchemaOf().safeParse(body);
    expect(compiled.success).toBe(mini.success);
    expect(compiled.data).toEqual(mini.data);
    expect(compiled.error?.issues.map((i) => [i.path, i.code, i.message])).toEqual(mini.error?.issues.map((i) => [i.path, i.code, i.message]));
  });

  it('validateRow reports an invalid row with the column, as before', () => {
    const mapping = { index: { name: 0, countryIso3Code: 1 }, columns: [{ header: 'Supplier Name' }, { header: 'Land' }] };
    const r = validateRow(['Acme', 'XX'], rowShape(mapping as never, ','));
    expect(r).toMatchObject({ ok: false, field: 'countryIso3Code' });
    expect(!r.ok && r.message).toContain('countryIso3Code (column "Land")');
  });
});
