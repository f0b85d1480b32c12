import { describe, expect, it } from 'vitest';
import { axeViolations } from './axe';

describe('axeViolations', () => {
  it('reports a real violation (the helper is not a no-op)', async () => {
    const element = document.createElement('div');
    element.innerHTML = '<img src="/x.png"><button></button>';
    document.body.append(element);
    const violations = await axeViolations(element);
    element.remove();
    expect(violations.map((v) => v.split(':')[0])).toEqual(expect.arrayContaining(['image-alt', 'button-name']));
  });
});
