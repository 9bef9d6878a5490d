/**
 * Masks secrets (the API key) in text: `****` and the last 4 characters, wherever the key appears in any
 * letter case, and URL-encoded (a service that echoes it in a query string or a form). One redactor
 * serves stdout, stderr, the files srs writes and the HTTP layer's error messages, which it masks before
 * they are cut to length (a cut key no longer matches).
 */
export interface Redactor {
  add(secret: string | undefined): void;
  /** Whether any secret is registered. */
  readonly active: boolean;
  redact(text: string): string;
  /** Whether these bytes may hold a secret (searched as sent, lower- and upper-case, URL-encoded). */
  mayHold(bytes: Uint8Array): boolean;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The secret as any JSON encoder may spell it inside a string: each character as itself or as \uXXXX, "/" also
 * as \/, '"' and "\\" escaped. A service written in PHP or Go sends "Sl\/ash\u0026Key" for Sl/ash&Key, and the
 * commands that pass the service's bytes on (srs api -o json, score calc -o json) printed it unmasked.
 */
function jsonSpelling(secret: string): string {
  let re = '';
  for (const c of secret) {
    const code = c.codePointAt(0)!;
    const alts = [escapeRe(c)];
    if (code <= 0xffff) alts.push(`\\\\u${code.toString(16).padStart(4, '0')}`);
    if (c === '/') alts.push('\\\\/');
    if (c === '"') alts.push('\\\\"');
    if (c === '\\') alts.push('\\\\\\\\');
    re += alts.length > 1 ? `(?:${alts.join('|')})` : alts[0]!;
  }
  return re;
}

/** Longest key masked by one regular expression; keyProblem (src/config/resolve.ts) refuses longer keys. */
export const MAX_KEY_LENGTH = 1024;

/**
 * One case-insensitive expression for every spelling of the secret, or undefined for a key longer than
 * MAX_KEY_LENGTH: its JSON spelling has a group a character, and V8 cannot compile that past ~6,250 characters
 * ("Stack overflow"; a plain alternation of a 2 MB key is "too large" too). The error crashed every command at its
 * first line of output and printed the key whole in the stack trace.
 */
function spellingsRe(secret: string, spellings: string[]): RegExp | undefined {
  if (secret.length > MAX_KEY_LENGTH) return undefined;
  try {
    return new RegExp([...spellings.map(escapeRe), jsonSpelling(secret)].join('|'), 'gi');
  } catch {
    return undefined;
  }
}

/** How the key is masked: `****` and its last 4 characters when it is long enough that they reveal little. */
export const maskOf = (secret: string): string => (secret.length > 8 ? '****' + secret.slice(-4) : '****');

export function makeRedactor(): Redactor {
  const secrets: string[] = [];
  // re: every spelling in any letter case; undefined for a key too long for one (see add), whose spellings are then
  // masked as they are and in lower and upper case (`plain`).
  const patterns: Array<{ re: RegExp | undefined; plain: string[]; mask: string; bytes: Buffer[] }> = [];
  return {
    add(secret) {
      if (!secret || secret.length < 4 || secrets.includes(secret)) return;
      secrets.push(secret);
      // As given, and as a URL or a query string spells it: encodeURIComponent, URLSearchParams (srs's own query
      // strings: it also encodes "~"), encodeURI, and each with "+" left as typed (a key in a path typed by hand).
      const form = new URLSearchParams([['k', secret]]).toString().slice(2);
      const component = encodeURIComponent(secret);
      // And as JSON and CSV write it: a key holding " or \\ went to stdout in full inside a JSON string or a CSV cell.
      // And as the HTML report escapes it (&#38; for &): a key the service echoed in a name went into the report.
      const html = secret.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
      const spellings = [...new Set([secret, component, form, encodeURI(secret), component.replace(/%2B/gi, '+'), form.replace(/%2B/gi, '+'), JSON.stringify(secret).slice(1, -1), secret.replace(/"/g, '""'), html])];
      const plain = [...new Set(spellings.flatMap((s) => [s, s.toLowerCase(), s.toUpperCase()]))].sort((x, y) => y.length - x.length);
      patterns.push({
        re: spellingsRe(secret, spellings),
        plain,
        // A short key is masked whole: its last 4 characters were most or all of it ("********Zq7w").
        mask: maskOf(secret),
        bytes: plain.map((v) => Buffer.from(v)),
      });
    },
    get active() {
      return patterns.length > 0;
    },
    redact(text) {
      // One scan per secret: replace() without a match returns the text as it was.
      let out = text;
      for (const p of patterns) {
        if (p.re) out = out.replace(p.re, p.mask);
        else for (const s of p.plain) if (out.includes(s)) out = out.split(s).join(p.mask);
      }
      return out;
    },
    mayHold(bytes) {
      if (!patterns.length) return false;
      const b = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      if (patterns.some((p) => p.bytes.some((k) => b.includes(k)))) return true;
      // Mixed-case spellings: a case-insensitive search of every chunk, whatever its size (chunks over 64 KiB
      // used to be searched only in the three cases above, and a key echoed as "sEKR3Tkey" reached stdout).
      // Measured: 60 ms per 100 MB, against 27 ms for the three byte searches alone.
      const text = b.toString('latin1');
      return patterns.some((p) => {
        if (!p.re) return false; // its spellings were searched above
        p.re.lastIndex = 0;
        return p.re.test(text);
      });
    },
  };
}
