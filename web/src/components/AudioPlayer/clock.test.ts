import { describe, expect, it } from 'vitest';
import { clock, spokenDuration } from './clock';

describe('clock', () => {
  it('writes m:ss, and h:mm:ss from an hour', () => {
    expect(clock(0)).toBe('0:00');
    expect(clock(65.9)).toBe('1:05');
    expect(clock(725)).toBe('12:05');
    expect(clock(3725)).toBe('1:02:05');
  });

  it('reads an unknown or negative time as zero', () => {
    expect(clock(Number.NaN)).toBe('0:00');
    expect(clock(Number.POSITIVE_INFINITY)).toBe('0:00');
    expect(clock(-3)).toBe('0:00');
  });
});

describe('spokenDuration', () => {
  it('says the time in words', () => {
    expect(spokenDuration(65)).toBe('1 minute 5 seconds');
    expect(spokenDuration(3600)).toBe('1 hour');
    expect(spokenDuration(0)).toBe('0 seconds');
    expect(spokenDuration(7322)).toBe('2 hours 2 minutes 2 seconds');
  });
});
