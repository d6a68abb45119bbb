// The renderer as a plain static site, built to out/renderer: the browser mode (`npm run build:web`) and, through
// electron.vite.config.ts, the desktop window. Relative asset paths so it works from file:// and from the HTTP host.
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import { contentSecurityPolicy } from './src/shared/csp';

const root = import.meta.dirname;

/** The CSP as a meta tag in the built page only: the dev server needs an inline script (React refresh). */
function contentSecurityPolicyMeta(): Plugin {
  return {
    name: 'skill-curator-csp-meta',
    apply: 'build',
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content: contentSecurityPolicy },
        injectTo: 'head',
      },
    ],
  };
}

export const rendererConfig = {
  root: resolve(root, 'src/renderer'),
  base: './',
  plugins: [react(), contentSecurityPolicyMeta()],
  build: {
    outDir: resolve(root, 'out/renderer'),
    emptyOutDir: true,
    // One bundle for a local app: nothing is fetched over a network, so splitting buys nothing.
    chunkSizeWarningLimit: 2000,
    rollupOptions: { input: resolve(root, 'src/renderer/index.html') },
  },
} satisfies UserConfig;

export default defineConfig(rendererConfig);
