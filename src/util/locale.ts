/** The terminal's character set, from the locale (no dependencies: a lookup loads this at start-up). */
type Env = Readonly<Record<string, string | undefined>>;

/**
 * Whether the terminal's character set is UTF-8, from the locale as the C
 * library reads it: the first non-empty of LC_ALL, LC_CTYPE, LANG. No locale
 * at all is the C locale: ASCII.
 */
export function isUtf8Locale(env: Env): boolean {
  const locale = env.LC_ALL || env.LC_CTYPE || env.LANG || '';
  return /utf-?8/i.test(locale);
}
