import { describe, expect, it } from 'vitest';
import { roleAfterName } from './authorRole';

describe('roleAfterName', () => {
  it.each([
    ['Maya Lindqvist', 'Maya Lindqvist, MBSR Teacher', 'MBSR Teacher'],
    ['Maya Lindqvist', 'MBSR Teacher', 'MBSR Teacher'],
    ['Maya', 'Maya Lindqvist, Teacher', 'Maya Lindqvist, Teacher'],
    ['Sam Okafor', 'Sam Okafor,Sleep Coach', 'Sleep Coach'],
  ])('%j + %j → %j', (name, role, expected) => {
    expect(roleAfterName(name, role)).toBe(expected);
  });
});
