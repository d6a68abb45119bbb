// The window's Content-Security-Policy: nothing but the app's own files, inline data: images, no remote loads.
// Shared by the built page (a meta tag, see vite.web.config.ts), the Electron session and the HTTP host (headers).

const strict = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-src': ["'none'"],
};

function render(directives: Record<string, string[]>): string {
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

export const contentSecurityPolicy = render(strict);

/** `npm run dev` only: Vite's React refresh needs an inline preamble and a websocket to the dev server. */
export const devContentSecurityPolicy = render({
  ...strict,
  'script-src': ["'self'", "'unsafe-inline'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'connect-src': ["'self'", 'ws:'],
});
