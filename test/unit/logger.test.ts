import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger';

describe('the structured logger', () => {
  it("keeps a line's own message and level when data has keys of the same name, and drops lines below its level", () => {
    const lines: string[] = [];
    const logger = createLogger('warn', (line) => lines.push(line));
    logger.info('not written');
    logger.warn('conflict not resolved', { message: 'from data', level: 'debug', conflictId: 3 });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 'warn',
      message: 'conflict not resolved',
      conflictId: 3,
    });
  });
});
