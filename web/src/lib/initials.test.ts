import { describe, expect, it } from 'vitest';
import { initials } from './initials';

describe('initials', () => {
  it.each([
    ['Maya Lindqvist', 'ML'],
    ['Amara Nwachukwu-Price', 'AN'],
    ['Dalia Serrano Voss', 'DV'],
    ['Plato', 'P'],
    ['  élodie   martin ', 'ÉM'],
    ['', ''],
  ])('%j → %j', (name, expected) => {
    expect(initials(name)).toBe(expected);
  });
});
