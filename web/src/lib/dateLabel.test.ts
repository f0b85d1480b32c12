import { describe, expect, it } from 'vitest';
import { dateLabel } from './dateLabel';

describe('dateLabel', () => {
  it('writes the month name, the day without a leading zero and the year', () => {
    expect(dateLabel('2025-03-02')).toBe('March 2, 2025');
    expect(dateLabel('2026-12-31')).toBe('December 31, 2026');
    expect(dateLabel('2024-01-10')).toBe('January 10, 2024');
  });

  it('leaves what is not an ISO date as it is', () => {
    expect(dateLabel('2025-13-02')).toBe('2025-13-02');
    expect(dateLabel('soon')).toBe('soon');
  });
});
