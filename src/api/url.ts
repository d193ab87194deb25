/**
 * The URL of a request, built one way for sending it and for measuring it beforehand (the service
 * refuses a URL longer than MAX_REQUEST_URL_LENGTH, so `blacklist check` splits its values by it).
 */

export type Query = Record<string, string | number | boolean | undefined>;

export function requestUrl(baseUrl: string, path: string, query: Query = {}): URL {
  const url = new URL(baseUrl.replace(/\/+$/, '') + path);
  const added: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    url.searchParams.delete(name);
    // A comma is legal in a query; the service documents lists as `status=RUNNING,PAUSED`, not %2C.
    added.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value)).replace(/%2C/gi, ',')}`);
  }
  if (added.length > 0) {
    const kept = url.search.replace(/^\?/, '');
    url.search = [kept, ...added].filter((part) => part !== '').join('&');
  }
  return url;
}
