// Backoff between attempts: what the server's Retry-After asks, else exponential with jitter, never above the cap.
import { describe, expect, it } from 'vitest';
import { retryDelayMs, serverAskedDelayMs } from '../../src/core/llm/retry';

const now = Date.parse('2026-03-01T12:00:00Z');

describe('Retry-After', () => {
  it('reads delay-seconds, fractional seconds and retry-after-ms', () => {
    expect(serverAskedDelayMs('3', null, now)).toBe(3000);
    expect(serverAskedDelayMs(' 1.5 ', null, now)).toBe(1500);
    expect(serverAskedDelayMs('3', '250', now)).toBe(250);
  });

  it('reads an HTTP date relative to now, and a date in the past as no wait', () => {
    expect(serverAskedDelayMs('Sun, 01 Mar 2026 12:00:07 GMT', null, now)).toBe(7000);
    expect(serverAskedDelayMs('Sun, 01 Mar 2026 11:00:00 GMT', null, now)).toBe(0);
  });

  it('ignores what it cannot read', () => {
    expect(serverAskedDelayMs('soon', null, now)).toBeUndefined();
    expect(serverAskedDelayMs(null, null, now)).toBeUndefined();
  });
});

describe('backoff', () => {
  it('doubles per retry, jitters within the upper half, and stops at the cap', () => {
    const at = (retry: number, random: number) =>
      retryDelayMs({ retry, maxDelayMs: 4000, nowMs: now, random: () => random });
    expect(at(0, 1)).toBe(500);
    expect(at(0, 0)).toBe(250);
    expect(at(1, 1)).toBe(1000);
    expect(at(2, 1)).toBe(2000);
    expect(at(5, 1)).toBe(4000);
    expect(at(5, 0)).toBe(2000);
  });

  it('honours Retry-After over the backoff, but not beyond the cap', () => {
    const base = { retry: 0, nowMs: now, random: () => 0.5 };
    expect(retryDelayMs({ ...base, maxDelayMs: 60_000, retryAfter: '10' })).toBe(10_000);
    expect(retryDelayMs({ ...base, maxDelayMs: 5_000, retryAfter: '10' })).toBe(5_000);
  });
});
