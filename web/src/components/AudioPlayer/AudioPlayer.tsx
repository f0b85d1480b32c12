import { type ComponentType, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import type { Recording } from '../../protocol';
import styles from './AudioPlayer.module.css';
import type { ControlsProps } from './PlayerControls';

type Props = {
  readonly audio: Recording;
  /** What is playing (the article's title): names the player. */
  readonly title: string;
};

/**
 * A guided-meditation recording. The server renders a plain `<audio controls preload="none">`,
 * which plays without JavaScript; after hydration an effect loads the player's controls
 * (./PlayerControls, a chunk of its own: only pages with a recording fetch it) and hands them the
 * same element, its own controls then hidden. Nothing of the file is fetched before play
 * (`preload="none"`): the length shown comes from the build, read from the file.
 *
 * The box keeps one height before and after (AudioPlayer.module.css), so enhancing it moves
 * nothing on the page.
 */
export function AudioPlayer({ audio, title }: Props): ReactNode {
  const ref = useRef<HTMLAudioElement>(null);
  const id = useId();
  const [Controls, setControls] = useState<ComponentType<ControlsProps> | null>(null);

  useEffect(() => {
    let live = true;
    import('./PlayerControls').then(
      (module) => {
        if (live) setControls(() => module.PlayerControls);
      },
      // The browser's own controls stay: the recording still plays.
      (error: unknown) => console.error('The audio player failed to load', error),
    );
    return () => {
      live = false;
    };
  }, []);

  return (
    <figure className={styles.player}>
      <figcaption className={styles.caption} id={`${id}-caption`}>
        {`Guided meditation · ${Math.max(1, Math.round(audio.seconds / 60))} min`}
      </figcaption>
      {/* biome-ignore lint/a11y/useMediaCaption: a spoken meditation whose words are the article below it. */}
      <audio ref={ref} src={audio.src} preload="none" controls={!Controls} aria-labelledby={`${id}-caption`} />
      {Controls && <Controls audio={ref} seconds={audio.seconds} title={title} />}
    </figure>
  );
}
