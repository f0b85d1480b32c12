// The flags Debian's Chromium needs on these machines (no sandbox as root, no network of its
// own), shared by the e2e tests (e2e/browser.ts), Lighthouse, the screenshots and the benches.
export const CHROMIUM_ARGS = Object.freeze([
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]);
