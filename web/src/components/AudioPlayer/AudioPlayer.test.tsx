import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { axeViolations } from '../../test/axe';
import { AudioPlayer } from './AudioPlayer';
import { SPEEDS } from './PlayerControls';

const audio = { src: '/media/3f2a9c0d1e4b5a67-body-scan.m4a', type: 'audio/mp4', seconds: 725 };

// jsdom has no media playback: play and pause flip `paused` and fire the events a browser fires.
const paused = new WeakMap<HTMLMediaElement, boolean>();
beforeEach(() => {
  const proto = window.HTMLMediaElement.prototype;
  vi.spyOn(proto, 'paused', 'get').mockImplementation(function (this: HTMLMediaElement) {
    return paused.get(this) ?? true;
  });
  vi.spyOn(proto, 'play').mockImplementation(function (this: HTMLMediaElement) {
    paused.set(this, false);
    this.dispatchEvent(new Event('play'));
    return Promise.resolve();
  });
  vi.spyOn(proto, 'pause').mockImplementation(function (this: HTMLMediaElement) {
    paused.set(this, true);
    this.dispatchEvent(new Event('pause'));
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

const element = () => document.querySelector('audio') as HTMLAudioElement;

/** Renders the player and waits for its controls (loaded after the first render). */
async function renderPlayer() {
  const result = render(<AudioPlayer audio={audio} title="Body scan" />);
  // The controls are a chunk of their own: on a busy machine its import takes a while.
  await screen.findByRole('group', { name: 'Player: Body scan' }, { timeout: 5000 });
  // The group is in the DOM once React commits; its listeners on the element are attached by a
  // passive effect that may still be pending. Flush it, so an event fired next is heard.
  await act(async () => {});
  return result;
}

describe('AudioPlayer', () => {
  it('renders a plain audio element with controls on the server, fetching nothing before play', () => {
    const html = renderToString(<AudioPlayer audio={audio} title="Body scan" />);
    const doc = new DOMParser().parseFromString(html, 'text/html');
    const el = doc.querySelector('audio');
    expect(el?.hasAttribute('controls')).toBe(true);
    expect(el?.getAttribute('preload')).toBe('none');
    expect(el?.getAttribute('src')).toBe(audio.src);
    expect(doc.querySelector('button')).toBeNull();
    expect(doc.querySelector('figcaption')?.textContent).toBe('Guided meditation · 12 min');
  });

  it('becomes a labelled player after hydration, hiding the browser controls', async () => {
    render(<AudioPlayer audio={audio} title="Body scan" />);
    // Until the controls arrive, the browser's own stay.
    expect(element().hasAttribute('controls')).toBe(true);
    const group = await screen.findByRole('group', { name: 'Player: Body scan' }, { timeout: 5000 });
    expect(group).toBeTruthy();
    expect(element().hasAttribute('controls')).toBe(false);
    expect(screen.getByRole('button', { name: 'Play' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Back 10 seconds' })).toBeTruthy();
    const slider = screen.getByRole('slider', { name: 'Position' });
    expect(slider.getAttribute('max')).toBe('725');
    expect(slider.getAttribute('aria-valuetext')).toBe('0 seconds of 12 minutes 5 seconds');
    expect(screen.getByRole('combobox', { name: 'Speed' })).toBeTruthy();
    expect(screen.getByText('0:00')).toBeTruthy();
    expect(screen.getByText('−12:05')).toBeTruthy();
  });

  it('plays and pauses from the keyboard', async () => {
    const user = userEvent.setup();
    await renderPlayer();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Play' }));
    await user.keyboard('{Enter}');
    expect(element().play).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Pause' })).toBe(document.activeElement);
    await user.keyboard(' ');
    expect(element().pause).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Play' })).toBeTruthy();
  });

  it('goes back 10 seconds, not before the start', async () => {
    const user = userEvent.setup();
    await renderPlayer();
    const a = element();
    a.currentTime = 65;
    act(() => {
      a.dispatchEvent(new Event('timeupdate'));
    });
    expect(screen.getByText('1:05')).toBeTruthy();
    expect(screen.getByText('−11:00')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Back 10 seconds' }));
    expect(a.currentTime).toBe(55);
    expect(screen.getByText('0:55')).toBeTruthy();
    a.currentTime = 4;
    act(() => {
      a.dispatchEvent(new Event('timeupdate'));
    });
    await user.click(screen.getByRole('button', { name: 'Back 10 seconds' }));
    expect(a.currentTime).toBe(0);
  });

  it('seeks with the slider keys: arrows 5 s, Page Up/Down 30 s, Home and End', async () => {
    const user = userEvent.setup();
    await renderPlayer();
    const slider = screen.getByRole('slider', { name: 'Position' });
    slider.focus();
    await user.keyboard('{ArrowRight}');
    expect(element().currentTime).toBe(5);
    await user.keyboard('{PageUp}');
    expect(element().currentTime).toBe(35);
    await user.keyboard('{ArrowLeft}');
    expect(element().currentTime).toBe(30);
    expect(slider.getAttribute('aria-valuetext')).toBe('30 seconds of 12 minutes 5 seconds');
    await user.keyboard('{End}');
    expect(element().currentTime).toBe(725);
    await user.keyboard('{Home}');
    expect(element().currentTime).toBe(0);
  });

  it('changes the speed among 0.75, 1, 1.25 and 1.5', async () => {
    const user = userEvent.setup();
    await renderPlayer();
    const select = screen.getByRole('combobox', { name: 'Speed' }) as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(['0.75×', '1×', '1.25×', '1.5×']);
    expect(select.value).toBe('1');
    for (const speed of SPEEDS) {
      await user.selectOptions(select, String(speed));
      expect(element().playbackRate).toBe(speed);
      expect(select.value).toBe(String(speed));
    }
  });

  it('takes the real length once the browser knows it', async () => {
    await renderPlayer();
    vi.spyOn(element(), 'duration', 'get').mockReturnValue(730);
    act(() => {
      element().dispatchEvent(new Event('durationchange'));
    });
    expect(screen.getByRole('slider', { name: 'Position' }).getAttribute('max')).toBe('730');
  });

  it('has no axe violations, before and after enhancement', async () => {
    const html = renderToString(<AudioPlayer audio={audio} title="Body scan" />);
    const plain = document.createElement('div');
    plain.innerHTML = html;
    document.body.append(plain);
    expect(await axeViolations(plain)).toEqual([]);
    plain.remove();
    const { container } = await renderPlayer();
    expect(await axeViolations(container)).toEqual([]);
  });
});
