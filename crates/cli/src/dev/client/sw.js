// Served as /sw.js by `stillpoint dev` in place of the site's service worker. A browser that
// installed the production worker on this origin updates to this one, which deletes every cache,
// unregisters itself and reloads the pages the old worker controlled (they came from its cache).
// It has no fetch handler: nothing is ever served from a cache in dev.
self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) await caches.delete(key);
      await self.registration.unregister();
      const controlled = await self.clients.matchAll({ type: 'window' });
      for (const client of controlled) client.navigate(client.url);
    })(),
  );
});
