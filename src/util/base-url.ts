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
