// A minimal structured logger the hosts hand to the core; secrets never go through it.
export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const order: LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];

export function createLogger(level: LogLevel, write: (line: string) => void): Logger {
  const at = (l: LogLevel) => (message: string, data?: Record<string, unknown>) => {
    if (order.indexOf(l) < order.indexOf(level)) return;
    // The line's own fields win over data's keys of the same name.
    write(JSON.stringify({ ...data, time: new Date().toISOString(), level: l, message }));
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

export const silentLogger: Logger = createLogger('silent', () => {});
