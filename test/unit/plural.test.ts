import { describe, expect, it } from 'vitest';
import { count, pluralOf, singularOf } from '../../src/util/plural.js';

describe('counts in words', () => {
  it('picks one or other', () => {
    expect(count(1, 'supplier')).toBe('1 supplier');
    expect(count(0, 'supplier')).toBe('0 suppliers');
    expect(count(2, 'country')).toBe('2 countries');
    expect(count(1, 'supplier id')).toBe('1 supplier id');
    expect(count(3, 'news event')).toBe('3 news events');
  });
  it('turns the plurals srs uses back into singulars', () => {
    for (const one of ['country', 'industry', 'category', 'data source', 'news event', 'scorecard', 'emission report']) expect(singularOf(pluralOf(one))).toBe(one);
  });
});
