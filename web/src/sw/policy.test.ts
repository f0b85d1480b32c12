import { describe, expect, it } from 'vitest';
import { withPolicy } from './policy';

const CSP = "default-src 'self'; frame-src https://www.youtube-nocookie.com";

describe('withPolicy', () => {
  it('sets the site policy on a kept page that had none, keeping its body and status', async () => {
    const kept = new Response('<p>x</p>', { status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
    const served = withPolicy(kept, CSP);
    expect(served.headers.get('Content-Security-Policy')).toBe(CSP);
    expect(served.status).toBe(200);
    expect(await served.text()).toBe('<p>x</p>');
  });

  it('replaces another policy and leaves other files alone', () => {
    const page = new Response('', { headers: { 'Content-Type': 'text/html', 'Content-Security-Policy': 'x' } });
    expect(withPolicy(page, CSP).headers.get('Content-Security-Policy')).toBe(CSP);
    const data = new Response('{}', { headers: { 'Content-Type': 'application/json' } });
    expect(withPolicy(data, CSP)).toBe(data);
  });
});
