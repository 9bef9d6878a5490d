/**
 * Static reference data served by the emulator.
 *
 * Countries: the npm package `world-countries` by Mohammed Le Doze
 * (https://github.com/mledoze/countries), made available under the Open
 * Database License (ODbL) 1.0, https://opendatacommons.org/licenses/odbl/1.0/.
 * The attribution and licence notice travel with the data: see NOTICE.md.
 *
 * Industries: data/industry-classification.json, the four-level GICS table
 * (codes and short names). GICS is a trademark of MSCI and S&P Global. See NOTICE.md.
 *
 * Ordering: countries by iso3Code, industries by code (string order, which for
 * these fixed-width codes is also hierarchy order).
 */
import worldCountriesModule from 'world-countries';
import type { Country as WorldCountry } from 'world-countries';
import industryTable from '../../data/industry-classification.json' with { type: 'json' };

export interface CountryRec {
  iso3Code: string;
  iso2Code: string;
  commonName: string;
  officialName: string;
  regionName: string;
}

export interface IndustryRec {
  code: string;
  name: string;
  hierarchyLevel: string;
  parentIndustryCode: string | null;
}

// The package is CommonJS (module.exports = the array) with an ESM build that
// re-exports it as default; depending on the loader the default import is the
// array itself or a namespace holding it.
const rawCountries = worldCountriesModule as unknown as WorldCountry[] | { default: WorldCountry[] };
const worldCountries: WorldCountry[] = Array.isArray(rawCountries) ? rawCountries : rawCountries.default;

const byString = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** ISO 3166-1 (the interface's countryIso3Code): the 249 officially assigned codes, not Kosovo's user-assigned UNK. */
export const COUNTRIES: readonly CountryRec[] = worldCountries
  .filter((c) => c.status === 'officially-assigned')
  .map((c) => ({
    iso3Code: c.cca3,
    iso2Code: c.cca2,
    commonName: c.name.common,
    officialName: c.name.official,
    regionName: c.region,
  }))
  .sort((a, b) => byString(a.iso3Code, b.iso3Code));

export const COUNTRY_CODES: ReadonlySet<string> = new Set(COUNTRIES.map((c) => c.iso3Code));

export const INDUSTRIES: readonly IndustryRec[] = (industryTable as IndustryRec[])
  .map((r) => ({ code: r.code, name: r.name, hierarchyLevel: r.hierarchyLevel, parentIndustryCode: r.parentIndustryCode }))
  .sort((a, b) => byString(a.code, b.code));

export const SUB_INDUSTRIES: readonly IndustryRec[] = INDUSTRIES.filter((r) => r.hierarchyLevel === 'sub_industry');

/** Sub-industry code -> record. Only sub-industries may be assigned to a supplier. */
export const SUB_INDUSTRY_BY_CODE: ReadonlyMap<string, IndustryRec> = new Map(SUB_INDUSTRIES.map((r) => [r.code, r]));
