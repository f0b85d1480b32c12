import { render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { card } from '../../test/fixtures';
import { CARD_SIZES } from '../Picture/sizes';
import { ArticleCard } from './ArticleCard';

describe('ArticleCard', () => {
  it('links the title and shows topic, description, author, date and reading time', () => {
    const sample = card(2);
    render(<ArticleCard card={sample} />);
    expect(screen.getByRole('heading', { level: 3, name: sample.title })).toBeTruthy();
    expect(screen.getByRole('link', { name: sample.title }).getAttribute('href')).toBe(sample.href);
    expect(screen.getByRole('link', { name: sample.topic?.label }).getAttribute('href')).toBe(sample.topic?.href);
    expect(screen.getByRole('link', { name: 'Maya Lindqvist' }).getAttribute('href')).toBe('/authors/maya-lindqvist');
    expect(screen.getByText(sample.description)).toBeTruthy();
    const time = screen.getByText('March 2, 2025');
    expect(time.getAttribute('datetime')).toBe('2025-03-02');
    expect(screen.getByText(/6 min read/)).toBeTruthy();
  });

  it('gives the cover image its intrinsic size and an empty alt (decorative)', () => {
    const { container } = render(<ArticleCard card={card(2)} />);
    const img = container.querySelector('picture > img');
    expect(img?.getAttribute('alt')).toBe('');
    expect([img?.getAttribute('width'), img?.getAttribute('height')]).toEqual(['1600', '1000']);
    expect(img?.getAttribute('loading')).toBe('lazy');
  });

  it('sizes the cover for the grid it is in', () => {
    const sizesIn = (ui: ReactNode) => render(ui).container.querySelector('source')?.getAttribute('sizes');
    expect(sizesIn(<ArticleCard card={card(2)} />)).toBe(CARD_SIZES.roomy);
    expect(sizesIn(<ArticleCard card={card(2)} density="dense" />)).toBe(CARD_SIZES.dense);
    expect(sizesIn(<ArticleCard card={card(2)} variant="featured" density="dense" />)).toBe(CARD_SIZES.featured);
  });

  it('gives a guided meditation its listening time instead of the reading time', () => {
    const meditation = card(4);
    expect(meditation.audioMinutes).toBe(12);
    render(<ArticleCard card={meditation} />);
    expect(screen.getByText(/12 min guided meditation/)).toBeTruthy();
    expect(screen.queryByText(/min read/)).toBeNull();
  });

  it('uses the heading level it is given', () => {
    render(<ArticleCard card={card(1)} headingLevel={2} />);
    expect(screen.getByRole('heading', { level: 2 })).toBeTruthy();
  });

  it('keeps its markup lean: one class, on the card, and no separator element', () => {
    const { container } = render(<ArticleCard card={card(2)} />);
    const classed = [...container.querySelectorAll('[class]')];
    expect(classed.map((e) => e.tagName)).toEqual(['ARTICLE']);
    expect(container.querySelector('[data-variant]')).toBeNull();
    // The " · " between date and reading time is drawn by CSS; the text reads as two phrases.
    expect(container.querySelector('[aria-hidden]')).toBeNull();
    expect(container.querySelector('time')?.parentElement?.textContent).toBe('March 2, 2025 6 min read');
  });

  it('leaves out the image and description when compact', () => {
    const { container } = render(<ArticleCard card={card(2)} variant="compact" />);
    expect(container.querySelector('img')).toBeNull();
    expect(screen.queryByText(card(2).description)).toBeNull();
  });
});
