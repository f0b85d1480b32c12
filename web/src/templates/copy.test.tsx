// The owner's words: the home page and the 404 page show the texts the builder hands them
// (`[home]`, `[not_found]` in stillpoint.toml), and a home section with no articles is not rendered.
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { HomeProps } from '../protocol';
import { pageProps } from '../test/fixtures';
import Home from './Home';
import NotFound from './NotFound';

const owners: HomeProps = {
  ...pageProps.Home,
  heading: 'Sit with the water',
  lead: 'Short practices from the Still Waters teachers.',
  titles: { topStories: 'Newest', popular: 'Most read', more: 'Everything else' },
};

describe('Home', () => {
  it('shows the heading, lead and section titles it is given', () => {
    render(<Home {...owners} />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Sit with the water');
    expect(screen.getByText('Short practices from the Still Waters teachers.')).toBeTruthy();
    for (const title of ['Newest', 'Most read', 'Everything else']) {
      expect(screen.getByRole('heading', { level: 2, name: title })).toBeTruthy();
    }
    expect(screen.queryByText(/calmer you/i)).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Top Stories' })).toBeNull();
  });

  it('renders no heading over an empty section, and no lead when it is empty', () => {
    const { container } = render(<Home {...owners} lead="" featured={[]} topStories={[]} more={[]} />);
    expect(screen.queryByRole('heading', { name: 'Newest' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Everything else' })).toBeNull();
    expect(screen.getByRole('heading', { level: 2, name: 'Most read' })).toBeTruthy();
    expect(container.querySelectorAll('section')).toHaveLength(2); // the hero and "Most read"
    expect(container.querySelector('h1 + p')).toBeNull();
  });

  it('renders only the heading on a site with no articles yet', () => {
    const { container } = render(<Home {...owners} featured={[]} topStories={[]} popular={[]} more={[]} />);
    expect(container.querySelectorAll('h2')).toHaveLength(0);
    expect(container.querySelectorAll('a')).toHaveLength(0);
  });
});

describe('NotFound', () => {
  it('shows the heading and text it is given', () => {
    render(<NotFound {...pageProps.NotFound} title="Lost" heading="Nothing here" description="Try the search." />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Nothing here');
    expect(screen.getByText('Try the search.')).toBeTruthy();
    expect(screen.queryByText(/Oops!/)).toBeNull();
  });
});
