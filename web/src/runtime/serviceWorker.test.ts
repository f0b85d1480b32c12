import { describe, expect, it } from 'vitest';
import { isServiceWorkerOrigin } from './serviceWorker';

describe('isServiceWorkerOrigin', () => {
  it.each([
    ['https:', 'calm.example', true],
    ['http:', 'localhost', true],
    ['http:', 'site.localhost', true],
    ['http:', '127.0.0.1', true],
    ['http:', '[::1]', true],
    ['http:', 'calm.example', false],
    ['http:', '192.168.1.20', false],
    ['http:', 'localhost.calm.example', false],
  ])('%s//%s → %s', (protocol, hostname, expected) => {
    expect(isServiceWorkerOrigin({ protocol, hostname })).toBe(expected);
  });
});
