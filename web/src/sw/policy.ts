/**
 * A kept answer as the service worker serves it: an HTML page gets the site's policy as a
 * header, whatever the answer it was kept from carried (a bucket behind a CDN sends none).
 * Other answers are returned as they are.
 */
export function withPolicy(response: Response, csp: string): Response {
  const type = response.headers.get('Content-Type') ?? '';
  if (!type.startsWith('text/html') || response.headers.get('Content-Security-Policy') === csp) return response;
  const headers = new Headers(response.headers);
  headers.set('Content-Security-Policy', csp);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
