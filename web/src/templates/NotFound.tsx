import type { ReactNode } from 'react';
import type { ErrorProps } from '../protocol';
import styles from './ErrorPage.module.css';

export default function NotFound({ heading, description }: ErrorProps): ReactNode {
  return (
    <div className={styles.error}>
      <p className={styles.code} aria-hidden="true">
        404
      </p>
      <h1 className={styles.title}>{heading}</h1>
      <p className={styles.description}>{description}</p>
      <p>
        <a className={styles.home} href="/">
          Back to the home page
        </a>
      </p>
      <p className={styles.hint}>
        Looking for an article? Type a few words of its title into the search box at the top of the page, or browse the{' '}
        <a href="/sitemap">sitemap</a>.
      </p>
    </div>
  );
}
