import { type KeyboardEvent, type ReactNode, type RefObject, useEffect, useState } from 'react';
import { clock, spokenDuration } from './clock';
import styles from './PlayerControls.module.css';

/** The playback speeds offered, slowest first. */
export const SPEEDS = [0.75, 1, 1.25, 1.5] as const;

/** How far the "back" button goes, in seconds. */
export const BACK_SECONDS = 10;

/** Arrow keys on the position slider move this far; Page Up/Down six times as far. */
const SEEK_STEP = 5;

export type ControlsProps = {
  /** The player's `<audio>` element (rendered by AudioPlayer, its own controls hidden). */
  readonly audio: RefObject<HTMLAudioElement | null>;
  /** The length read from the file at build time, until the browser knows it. */
  readonly seconds: number;
  /** What is playing (the article's title): names the controls. */
  readonly title: string;
};

/** The recording's state, mirrored from the `<audio>` element's events. */
type Playback = { readonly playing: boolean; readonly time: number; readonly duration: number; readonly rate: number };

/**
 * The player's controls: play/pause, a position slider, 10 s back, the speed, and the time
 * elapsed and remaining. Every control is a native button, slider or select, so it is keyboard
 * operable and named; the slider also takes arrows (5 s), Page Up/Down (30 s), Home and End.
 * Loaded after hydration (AudioPlayer), so it costs nothing before the page is interactive.
 */
export function PlayerControls({ audio, seconds, title }: ControlsProps): ReactNode {
  const [state, setState] = useState<Playback>({ playing: false, time: 0, duration: seconds, rate: 1 });

  useEffect(() => {
    const element = audio.current;
    if (!element) return;
    const sync = () =>
      setState({
        playing: !element.paused && !element.ended,
        time: element.currentTime,
        duration: Number.isFinite(element.duration) && element.duration > 0 ? element.duration : seconds,
        rate: element.playbackRate,
      });
    const events = ['play', 'pause', 'ended', 'timeupdate', 'durationchange', 'ratechange', 'seeked'];
    for (const type of events) element.addEventListener(type, sync);
    sync();
    return () => {
      for (const type of events) element.removeEventListener(type, sync);
    };
  }, [audio, seconds]);

  const element = () => audio.current as HTMLAudioElement;
  const seek = (to: number) => {
    const time = Math.min(Math.max(to, 0), state.duration);
    element().currentTime = time;
    setState((s) => ({ ...s, time }));
  };
  const toggle = () => {
    const a = element();
    if (a.paused || a.ended) {
      // A refused play (no file, autoplay rules) leaves the button as it was: no event follows.
      a.play()?.catch(() => undefined);
    } else {
      a.pause();
    }
  };
  const onSliderKey = (event: KeyboardEvent<HTMLInputElement>) => {
    const step = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1, PageDown: -6, PageUp: 6 }[event.key];
    if (step !== undefined) {
      event.preventDefault();
      seek(state.time + step * SEEK_STEP);
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      seek(event.key === 'Home' ? 0 : state.duration);
    }
  };

  const remaining = Math.max(state.duration - state.time, 0);
  return (
    <fieldset className={styles.controls} aria-label={`Player: ${title}`}>
      <button
        type="button"
        className={styles.play}
        data-playing={state.playing ? '' : undefined}
        aria-label={state.playing ? 'Pause' : 'Play'}
        onClick={toggle}
      />
      <button
        type="button"
        className={styles.back}
        aria-label={`Back ${BACK_SECONDS} seconds`}
        onClick={() => seek(state.time - BACK_SECONDS)}
      >
        Back 10 s
      </button>
      <span className={styles.time}>
        <span className="visually-hidden">Elapsed </span>
        {clock(state.time)}
      </span>
      <input
        className={styles.seek}
        type="range"
        min={0}
        max={Math.max(Math.floor(state.duration), 1)}
        step={1}
        value={Math.floor(state.time)}
        aria-label="Position"
        aria-valuetext={`${spokenDuration(state.time)} of ${spokenDuration(state.duration)}`}
        onChange={(event) => seek(Number(event.currentTarget.value))}
        onKeyDown={onSliderKey}
      />
      <span className={styles.time}>
        <span className="visually-hidden">Remaining </span>
        {`−${clock(remaining)}`}
      </span>
      <label className={styles.speed}>
        <span className="visually-hidden">Speed</span>
        <select
          value={String(state.rate)}
          onChange={(event) => {
            const rate = Number(event.currentTarget.value);
            element().playbackRate = rate;
            setState((s) => ({ ...s, rate }));
          }}
        >
          {SPEEDS.map((speed) => (
            <option key={speed} value={String(speed)}>{`${speed}×`}</option>
          ))}
        </select>
      </label>
    </fieldset>
  );
}
