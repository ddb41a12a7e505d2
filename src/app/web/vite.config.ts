/** Builds the app's web UI into dist/app/web, where `ferry app`'s server finds it (static-files.ts). */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: '/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../../../dist/app/web', import.meta.url)),
    emptyOutDir: true,
    // The budget is 1 MB gzip for all the JavaScript (bench/app checks it); one chunk is fine.
    chunkSizeWarningLimit: 2000,
    sourcemap: false,
  },
});
