/// <reference types="vitest/config" />
// Two builds from one config (see package.json `build`):
//   `vite build`        → dist/client: the browser entry, one dynamic chunk per template, manifest.json
//                         (read by the Rust builder to link each page's JS and CSS).
//   `vite build --ssr`  → dist/server/worker.js: the Node SSR worker as one self-contained ES module
//                         (no node_modules needed at run time, runnable from any directory).
import { createHash } from 'node:crypto';
import { relative } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { customMedia } from './src/styles/breakpoints.ts';

const root = import.meta.dirname;

/**
 * CSS Modules class names depend only on the file path and the class, never on the build, so the
 * server HTML and the client CSS always agree. A name is six characters of the hash alone (a
 * class is written on every page that uses it, so its length is paid thousands of times); a
 * leading digit or `-` becomes `_`, and two classes sharing a name fail the build.
 */
function scopedName(local: string, file: string): string {
  const path = relative(root, file.split('?')[0] ?? file).replaceAll('\\', '/');
  const key = `${path}:${local}`;
  const hash = createHash('sha256').update(key).digest('base64url').slice(0, 6);
  const name = hash.replace(/^[-\d]/, '_');
  const owner = classOwners.get(name);
  if (owner !== undefined && owner !== key) throw new Error(`CSS class ${name} names both ${owner} and ${key}`);
  classOwners.set(name, key);
  return name;
}

/** Scoped class name → `path:local` of the CSS Module class it names, filled by `scopedName`. */
const classOwners = new Map<string, string>();

/** A PostCSS plugin: expands `@media (--narrow)` / `(--wide)` from the one TypeScript definition of the breakpoint. */
const customMediaPlugin = {
  postcssPlugin: 'stillpoint-custom-media',
  AtRule: {
    media(rule: { params: string }) {
      for (const [name, query] of Object.entries(customMedia)) {
        rule.params = rule.params.replaceAll(`(${name})`, query);
      }
    },
  },
};

/**
 * With one stylesheet (`cssCodeSplit: false`) Vite lists it in the manifest on its own (`style.css`);
 * the Rust builder links the entry's `css`, so the stylesheet is listed there too.
 */
const siteStylesheetInManifest: Plugin = {
  name: 'stillpoint-site-stylesheet',
  apply: 'build',
  generateBundle: {
    order: 'post',
    handler(_options, bundle) {
      const asset = bundle['.vite/manifest.json'];
      if (asset?.type !== 'asset') return;
      const manifest = JSON.parse(String(asset.source)) as Record<
        string,
        { file: string; isEntry?: boolean; css?: string[] }
      >;
      const sheet = manifest['style.css']?.file;
      if (!sheet) return;
      for (const chunk of Object.values(manifest)) {
        if (chunk.isEntry) chunk.css = [...new Set([sheet, ...(chunk.css ?? [])])];
      }
      asset.source = `${JSON.stringify(manifest, null, 2)}\n`;
    },
  },
};

export default defineConfig(({ isSsrBuild }) => ({
  root,
  base: '/',
  plugins: [react(), siteStylesheetInManifest],
  css: {
    modules: { generateScopedName: scopedName },
    postcss: { plugins: [customMediaPlugin] },
  },
  // The worker runs in production mode whatever NODE_ENV the builder has.
  define: isSsrBuild ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
  ssr: { noExternal: true, target: 'node' },
  build: isSsrBuild
    ? {
        ssr: 'src/worker.ts',
        outDir: 'dist/server',
        target: 'node20',
        emptyOutDir: true,
        copyPublicDir: false,
        minify: false,
        rolldownOptions: {
          output: { format: 'esm', entryFileNames: 'worker.js', codeSplitting: false },
        },
      }
    : {
        outDir: 'dist/client',
        manifest: true,
        emptyOutDir: true,
        target: 'es2022',
        // One stylesheet for the whole site (about 6 KB compressed): one render-blocking request, and
        // loading a template's chunk (prefetch, navigation) never adds CSS to the live page.
        cssCodeSplit: false,
        modulePreload: { polyfill: false },
        rolldownOptions: {
          input: 'src/entry-client.tsx',
          output: {
            entryFileNames: 'assets/[name]-[hash].js',
            chunkFileNames: 'assets/[name]-[hash].js',
            assetFileNames: 'assets/[name]-[hash][extname]',
          },
        },
      },
  test: {
    environment: 'jsdom',
    setupFiles: ['src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: { modules: { classNameStrategy: 'stable' } },
  },
}));
