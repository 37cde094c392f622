// chromium.mjs: how the browser tests start Debian's Chromium: where it is
// (GJ_CHROMIUM overrides) and the flags that keep it off the network.

export const CHROMIUM = process.env.GJ_CHROMIUM || '/usr/bin/chromium';

// Flags that keep Chromium off the network: no background fetches, no
// component or safe-browsing updates, no sync, no proxy lookup, and every
// host name but the daemon's address resolving to nothing.
export const CHROMIUM_ARGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-default-apps',
  '--disable-domain-reliability',
  '--disable-client-side-phishing-detection',
  '--disable-breakpad',
  '--disable-features=Translate,OptimizationHints,MediaRouter,InterestFeedContentSuggestions,AutofillServerCommunication,CertificateTransparencyComponentUpdater',
  '--metrics-recording-only',
  '--no-pings',
  '--no-proxy-server',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
  '--disable-dev-shm-usage',
  ...(process.getuid && process.getuid() === 0 ? ['--no-sandbox'] : []),
];
