/// <reference types="vitest/config" />
import { availableParallelism } from 'node:os';
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiTarget = process.env.FIELDWATCH_API || 'http://127.0.0.1:8080';
// The Host header is kept as the browser sent it, so the server's same-origin checks see the
// page's own origin.
const proxy = {
  '/apis': { target: apiTarget },
  '/healthz': { target: apiTarget },
};

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
    },
  },
  // cors: false so OPTIONS /apis/event/messages (the unread count) reaches the API instead of
  // being answered by Vite's own CORS handling.
  server: { proxy, cors: false },
  preview: { proxy, cors: false },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Everything the entry imports statically (React, the router, i18next, antd's core,
            // the providers) is needed by every page's first paint: one chunk instead of a dozen,
            // so fewer requests and their headers, and one compression window.
            { name: 'app', tags: ['$initial'] },
          ],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/testing/setup.ts'],
    css: false,
    restoreMocks: true,
    // Vitest keeps a core free by default, which on two cores means one worker: the files are
    // CPU-bound (jsdom set-up, imports), so two workers nearly halve the run.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Files share a worker's jsdom and module cache instead of building both again per file
    // (three times faster here). setup.ts unmounts, resets the language and storage and unstubs
    // globals after every test, and the run passes with the files shuffled.
    isolate: false,
    // Only a guard against a hung test, the one limit for every file: antd forms in jsdom on a busy
    // 2-core machine (make test runs these beside the Go tests) can take many seconds, and no test
    // here is about speed.
    testTimeout: 60_000,
  },
});
