import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Served by the service at /; the dev server forwards the API to a running service.
export default defineConfig({
  base: '/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 900 },
  server: { proxy: { '/api': process.env.SVC_URL ?? 'http://localhost:8080' } },
});
