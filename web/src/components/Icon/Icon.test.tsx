import { readFileSync } from 'node:fs';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Icon, iconName, NETWORK_ICONS } from './Icon';

describe('Icon', () => {
  it('is an empty element named by data-icon, hidden from assistive technology by having no content', () => {
    const { container } = render(<Icon name="spotify" />);
    const icon = container.querySelector('i') as HTMLElement;
    expect(icon.getAttribute('data-icon')).toBe('spotify');
    expect(icon.textContent).toBe('');
  });

  it('gives a known network its own icon and any other the generic link', () => {
    expect(iconName('youtube')).toBe('youtube');
    expect(iconName('apple_podcasts')).toBe('apple_podcasts');
    expect(iconName('photo')).toBe('photo');
    expect(iconName('mastodon')).toBe('link');
    expect(iconName('')).toBe('link');
  });

  it('has a drawing and a style rule for every network it knows', () => {
    const css = readFileSync(`${import.meta.dirname}/Icon.module.css`, 'utf8');
    for (const name of NETWORK_ICONS) {
      expect(css).toContain(`.icon[data-icon="${name}"] {\n  --icon: url("./icons/${name}.svg");`);
      const svg = readFileSync(`${import.meta.dirname}/icons/${name}.svg`, 'utf8');
      expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
      expect(svg.length).toBeLessThan(700);
    }
  });
});
