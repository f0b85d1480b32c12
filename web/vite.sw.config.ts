// The service worker build (the third step of `npm run build`): src/sw/sw.ts → dist/sw/sw.js, one
// classic script with nothing imported at run time. The Rust builder reads it from there and
// writes it to the site as /sw.js with the build's settings in front.
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  publicDir: false,
  build: {
    outDir: 'dist/sw',
    emptyOutDir: true,
    target: 'es2022',
    copyPublicDir: false,
    rolldownOptions: {
      input: 'src/sw/sw.ts',
      output: { format: 'iife', entryFileNames: 'sw.js' },
    },
  },
});
