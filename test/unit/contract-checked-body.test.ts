import { describe, expect, it } from 'vitest';
import { isCheckedSupplierBody, markCheckedSupplierBody, type SupplierCreateRequest } from '../../src/api/contract.js';

// The mark that lets the client skip re-validating a body SupplierInput already parsed is a
// non-enumerable symbol property (cheaper than a WeakSet per row). It must stay invisible and
// must never travel to a copy: a copy could be edited after validation.
describe('markCheckedSupplierBody', () => {
  const body = (): SupplierCreateRequest => ({ name: 'Acme', countryIso3Code: 'DEU', contacts: [{ email: 'a@acme.example' }] });

  it('marks only the object it was given', () => {
    const b = markCheckedSupplierBody(body());
    expect(isCheckedSupplierBody(b)).toBe(true);
    expect(isCheckedSupplierBody(body())).toBe(false);
    expect(isCheckedSupplierBody({ ...b })).toBe(false);
    expect(isCheckedSupplierBody(Object.assign({}, b))).toBe(false);
    expect(isCheckedSupplierBody(structuredClone(b))).toBe(false);
    expect(isCheckedSupplierBody(JSON.parse(JSON.stringify(b)))).toBe(false);
    expect(isCheckedSupplierBody(null)).toBe(false);
    expect(isCheckedSupplierBody('x')).toBe(false);
  });

  it('leaves no trace in what is sent or listed', () => {
    const plain = body();
    const b = markCheckedSupplierBody(body());
    expect(JSON.stringify(b)).toBe(JSON.stringify(plain));
    expect(Object.keys(b)).toEqual(Object.keys(plain));
    expect(b).toEqual(plain);
  });

  it('cannot be removed or forged by ordinary property writes', () => {
    const b = markCheckedSupplierBody(body());
    for (const s of Object.getOwnPropertySymbols(b)) {
      expect(() => {
        delete (b as Record<symbol, unknown>)[s];
      }).toThrow(TypeError);
    }
    expect(isCheckedSupplierBody(b)).toBe(true);
    const forged = { ...body(), [Symbol('srs.checkedSupplierBody')]: true };
    expect(isCheckedSupplierBody(forged)).toBe(false);
  });
});
