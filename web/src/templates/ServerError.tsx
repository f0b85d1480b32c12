import type { ReactNode } from 'react';
import type { ErrorProps } from '../protocol';
import styles from './ErrorPage.module.css';

export default function ServerError({ heading, description }: ErrorProps): ReactNode {
  return (
    <div className={styles.error}>
      <p className={styles.code} aria-hidden="true">
        500
      </p>
      <h1 className={styles.title}>{heading}</h1>
      <p className={styles.description}>{description}</p>
      <p>
        <a className={styles.home} href="/">
          Back to the home page
        </a>
      </p>
    </div>
  );
}
