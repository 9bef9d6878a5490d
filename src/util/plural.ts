/** Counts in words: "1 supplier", "2 suppliers", "1 country", "3 countries" (English; Intl.PluralRules picks the form). */

// Made on first use: the first Intl object of a process initialises ICU (~10 ms), and this module
// loads with the command tree of every command (test/integration/lookup-startup.test.ts).
let rules: Intl.PluralRules | undefined;

/** The plural of an English noun phrase: its last word gets "s", or "ies" for a consonant and "y". */
export function pluralOf(one: string): string {
  return /[^aeiou]y$/i.test(one) ? `${one.slice(0, -1)}ies` : /(s|x|ch|sh)$/i.test(one) ? `${one}es` : `${one}s`;
}

/** The singular of a plural noun phrase made by pluralOf ("countries" -> "country", "data sources" -> "data source"). */
export function singularOf(other: string): string {
  return /ies$/i.test(other) ? `${other.slice(0, -3)}y` : /(ss|x|ch|sh)es$/i.test(other) ? other.slice(0, -2) : other.replace(/s$/i, '');
}

/** "1 supplier", "0 suppliers", "2 suppliers"; `other` for irregular plurals. */
export function count(n: number, one: string, other: string = pluralOf(one)): string {
  return `${n} ${(rules ??= new Intl.PluralRules('en')).select(n) === 'one' ? one : other}`;
}
