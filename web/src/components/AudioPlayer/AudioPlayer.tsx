import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import type { Audio } from '../../protocol';
import styles from './AudioPlayer.module.css';
import { clock, spokenDuration } from './clock';

/** The playback speeds offered, slowest first. */
export const SPEEDS = [0.75, 1, 1.25, 1.5] as const;

/** How far the "back" button goes, in seconds. */
export const BACK_SECONDS = 10;

/** Arrow keys on the position slider move this far; Page Up/Down six times as far. */
const SEEK_STEP = 5;

type Props = {
  readonly audio: Audio;
  /** What is playing (the article's title): names the player. */
  readonly title: string;
};

/** The recording's state, mirrored from the `<audio>` element's events. */
type Playback = { readonly playing: boolean; readonly time: number; readonly duration: number; readonly rate: number };

/**
 * A guided-meditation recording. The server renders a plain `<audio controls preload="none">`,
 * which plays without JavaScript; after hydration an effect turns the same element into this
 * player (its own controls hidden): play/pause, a position slider, 10 s back, the speed, and the
 * time elapsed and remaining. Every control is a native button, slider or select, so it is
 * keyboard operable and named. Nothing is fetched before play (`preload="none"`): the length
 * comes from the build, read from the file.
 *
 * The box keeps one height before and after (AudioPlayer.module.css), so enhancing it moves
 * nothing on the page.
 */
export function AudioPlayer({ audio, title }: Props): ReactNode {
  const ref = useRef<HTMLAudioElement>(null);
  const id = useId();
  const [enhanced, setEnhanced] = useState(false);
  const [state, setState] = useState<Playback>({ playing: false, time: 0, duration: audio.seconds, rate: 1 });

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const sync = () =>
      setState({
        playing: !element.paused && !element.ended,
        time: element.currentTime,
        duration: Number.isFinite(element.duration) && element.duration > 0 ? element.duration : audio.seconds,
        rate: element.playbackRate,
      });
    const events = ['play', 'pause', 'ended', 'timeupdate', 'durationchange', 'ratechange', 'seeked'];
    for (const type of events) element.addEventListener(type, sync);
    setEnhanced(true);
    return () => {
      for (const type of events) element.removeEventListener(type, sync);
    };
  }, [audio.seconds]);

  const element = () => ref.current as HTMLAudioElement;
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
    <figure className={styles.player} data-enhanced={enhanced ? '' : undefined}>
      <figcaption className={styles.caption} id={`${id}-caption`}>
        {`Guided meditation · ${clock(audio.seconds)}`}
      </figcaption>
      {/* biome-ignore lint/a11y/useMediaCaption: a spoken meditation whose words are the article below it. */}
      <audio ref={ref} src={audio.src} preload="none" controls={!enhanced} aria-labelledby={`${id}-caption`} />
      {enhanced && (
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
      )}
    </figure>
  );
}
