/**
 * A base URL as srs compares and records it (a journal's target, a catalog partition, a bundle's service, the
 * warning about a stored key sent elsewhere): lowercase scheme and host, no default port, no credentials, no
 * query or fragment, no trailing slash and no trailing `/v1` (srs adds the version itself). An unparsable URL
 * is returned trimmed. Here, not in api/, so that config/ compares base URLs by the same rule without
 * importing the API layer.
 */
export function normaliseBaseUrl(url: string): string {
  const trimmed = url.trim();
  let u: URL;
  try {
    u = new URL(trimmed);
  } catch {
    return trimmed;
  }
  const defaultPort = (u.protocol === 'https:' && u.port === '443') || (u.protocol === 'http:' && u.port === '80');
  const host = u.hostname.toLowerCase() + (u.port && !defaultPort ? `:${u.port}` : '');
  let path = u.pathname.replace(/\/+$/, '');
  if (path.toLowerCase().endsWith('/v1')) path = path.slice(0, -3).replace(/\/+$/, '');
  return `${u.protocol.toLowerCase()}//${host}${path}`;
}

/**
 * A base URL for people (a warning, a note, auth status, a refusal): as typed, but never its user:password part,
 * in any spelling ("http://u:p@ss@host", "http:u:pw@host", "http:\\u:pw@host", a token alone, a URL that does not
 * parse), nor a query or fragment (either may hold a token). The redactor masks passwords of 4 characters and more
 * in the usual spelling only; a short or odd one was printed.
 */
export function showBaseUrl(typed: string): string {
  const t = typed.trim();
  let u: URL | undefined;
  try {
    u = new URL(t);
  } catch {
    u = undefined;
  }
  if (u) {
    if (!u.username && !u.password && !u.search && !u.hash) return t;
    const path = u.pathname === '/' && !/\/$/.test(t.replace(/[?#].*$/, '')) ? '' : u.pathname;
    return `${u.protocol}//${u.username || u.password ? '****@' : ''}${u.host}${path}${u.search ? '?…' : ''}${u.hash ? '#…' : ''}`;
  }
  // Unparsed: the authority is what follows the scheme and its slashes up to a path, query or fragment; what it holds
  // before its last "@" is userinfo ("https://exa mple.com/@team" keeps its host: that "@" is in the path).
  const m = /^([a-z][a-z0-9+.-]*:[\\/]*)([^/?#]*)([^?#]*)(.*)$/is.exec(t);
  if (!m) return t.includes('@') ? `****${t.slice(t.lastIndexOf('@'))}` : t;
  const [, scheme, authority, path, rest] = m as unknown as [string, string, string, string, string];
  const at = authority.lastIndexOf('@');
  return `${scheme}${at < 0 ? authority : `****${authority.slice(at)}`}${path}${rest ? `${rest[0]}…` : ''}`;
}
