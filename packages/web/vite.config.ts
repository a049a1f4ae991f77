import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** `pnpm dev:web` proxies the API to a running server (RHIZOME_API_URL, default the embedded server's port). */
const api = process.env.RHIZOME_API_URL ?? 'http://127.0.0.1:8888';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 800 },
  server: { port: 5173, proxy: { '/api': { target: api, changeOrigin: false } } },
});
