import { describe, expect, it } from 'vitest';
import * as contract from '../../src/api/contract.js';
import { pickFields } from '../../src/output/fields.js';
import { checkFields, fieldPaths } from '../../src/output/shapes.js';

describe('fieldPaths: the dot paths of a contract schema', () => {
  it('lists fields, nested objects, fields through arrays and array lengths', () => {
    const paths = fieldPaths(contract.Scorecard);
    expect(paths).toEqual(expect.arrayContaining(['id', 'name', 'createdAt', 'items', 'items.length', 'items.weight', 'items.policyParameter', 'items.policyParameter.name']));
    expect(paths).not.toContain('nosuch');
    expect(fieldPaths(contract.Country)).toEqual(expect.arrayContaining(['iso3Code', 'commonName', 'regionName']));
  });
});

describe('checkFields', () => {
  it('accepts known paths, array indexes included', () => {
    expect(checkFields('ref countries', ['iso3Code', 'commonName'])).toBeUndefined();
    expect(checkFields('scorecards ls', ['id', 'items.0.policyParameter.name', 'items.length'])).toBeUndefined();
    expect(checkFields('scorecards list', ['id'])).toBeUndefined();
  });
  it('names an unknown path with the closest known ones, or the fields there are', () => {
    expect(checkFields('ref countries', ['iso3Code', 'comonName'])).toBe('--fields: a country has no field "comonName" (did you mean commonName?)');
    expect(checkFields('ref countries', ['zzz'])).toBe('--fields: a country has no field "zzz" (fields of a country: iso3Code, iso2Code, commonName, officialName, regionName)');
    expect(checkFields('scorecards get', ['items.policyParameter.nmae'])).toMatch(/did you mean items\.policyParameter\.name\?/);
  });
  it('checks the catalog listings (supplier ls, supplier find) against a catalog entry', () => {
    expect(checkFields('supplier ls', ['id', 'customerSupplierId', 'source'])).toBeUndefined();
    expect(checkFields('supplier find', ['name', 'seenAt'])).toBeUndefined();
    expect(checkFields('supplier ls', ['nme'])).toBe('--fields: a catalog entry has no field "nme" (did you mean name?)');
    expect(checkFields('supplier find', ['bogus'])).toMatch(/^--fields: a catalog entry has no field "bogus" \(fields of a catalog entry: id, name, customerSupplierId, /);
  });
  it('checks score check, score recompute and score explain against the rows they print', () => {
    expect(checkFields('score check', ['supplierId', 'status', 'reasons'])).toBeUndefined();
    expect(checkFields('score check', ['stauts'])).toBe('--fields: a check result has no field "stauts" (did you mean status?)');
    expect(checkFields('score recompute', ['supplierId', 'path', 'reported', 'recomputed', 'delta', 'ok'])).toBeUndefined();
    expect(checkFields('score recompute', ['recomputd'])).toBe('--fields: a recomputed value has no field "recomputd" (did you mean recomputed?)');
    expect(checkFields('score explain', ['score.value', 'scorecards.parameters.weight', 'scorecardName', 'policyParameterId', 'expiringEntries'])).toBeUndefined();
    expect(checkFields('score explain', ['score.vaule'])).toBe('--fields: an explained score has no field "score.vaule" (did you mean score.value?)');
  });
  it("accepts the name columns score calc's breakdowns print (policyParameterName, dataSourceName, scopeName)", () => {
    expect(checkFields('score calc', ['policyParameterId', 'policyParameterName', 'score'])).toBeUndefined();
    expect(checkFields('score calc', ['dataSourceId', 'dataSourceName'])).toBeUndefined();
    expect(checkFields('score calc', ['scope', 'scopeId', 'scopeName', 'entryId'])).toBeUndefined();
  });
  it("score calc: tables and CSV show rows, so a path into the results (fine under json) is refused there", () => {
    expect(checkFields('score calc', ['supplierId', 'policyParameterScores.policyParameterId'], 'json')).toBeUndefined();
    expect(checkFields('score calc', ['supplierId', 'policyParameterScores.policyParameterId'], 'csv')).toMatch(/^--fields: a score row has no field "policyParameterScores\.policyParameterId"/);
    expect(checkFields('score calc', ['supplierId', 'dataSourceScores'], 'table')).toMatch(/a score row has no field "dataSourceScores"/);
    expect(checkFields('score calc', ['supplierId', 'score', 'policyParameterName'], 'csv')).toBeUndefined();
  });
  it('checks the import summary and auth status', () => {
    expect(checkFields('supplier import', ['created', 'exists', 'rowsPerSecond'])).toBeUndefined();
    expect(checkFields('supplier import', ['crated'])).toBe('--fields: an import summary has no field "crated" (did you mean created?)');
    expect(checkFields('auth status', ['profile', 'profiles.name'])).toBeUndefined();
    expect(checkFields('auth status', ['keysource'])).toMatch(/did you mean keySource\?/);
  });
  it('leaves commands without a fixed shape alone', () => {
    expect(checkFields('api', ['anything'])).toBeUndefined();
  });
});

describe('pickFields: --fields under json', () => {
  it('keeps only the named paths, nested, in order, leaving absent ones out', () => {
    const item = { id: 'a', name: 'n', policyParameter: { id: 'p', name: 'P' }, other: 1 };
    expect(pickFields(item, ['policyParameter.name', 'id', 'missing'])).toEqual({ policyParameter: { name: 'P' }, id: 'a' });
    expect(Object.keys(pickFields(item, ['name', 'id']))).toEqual(['name', 'id']);
  });
  it('a path through an array keeps the array: each element holds the fields named in it', () => {
    const card = { id: 'c', items: [{ weight: 5, policyParameter: { id: 'p1', name: 'GHG' } }, { weight: 2, policyParameter: { id: 'p2', name: 'Water' } }] };
    expect(pickFields(card, ['id', 'items.weight', 'items.policyParameter.name'])).toEqual({
      id: 'c',
      items: [
        { weight: 5, policyParameter: { name: 'GHG' } },
        { weight: 2, policyParameter: { name: 'Water' } },
      ],
    });
    // A whole field and a field inside it: the whole field.
    expect(pickFields(card, ['items.weight', 'items'])).toEqual({ items: card.items });
    expect(pickFields(card, ['items', 'items.weight'])).toEqual({ items: card.items });
    // ...and nothing of the path inside it lands elsewhere (items.id is not the card's id).
    expect(pickFields(card, ['items', 'id', 'items.policyParameter.id'])).toEqual({ items: card.items, id: 'c' });
    expect(pickFields({ id: 'c', items: [{ id: 'i1' }] }, ['items', 'items.id'])).toEqual({ items: [{ id: 'i1' }] });
    // An index or length names the array itself.
    expect(pickFields(card, ['items.0.weight', 'items.length'])).toEqual({ items: { 0: { weight: 5 }, length: 2 } });
    // Through a scalar: absent.
    expect(pickFields(card, ['id.x'])).toEqual({});
  });
});
