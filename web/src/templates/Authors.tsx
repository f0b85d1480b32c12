import type { ReactNode } from 'react';
import { Breadcrumbs } from '../components/Breadcrumbs/Breadcrumbs';
import { Picture } from '../components/Picture/Picture';
import { roleAfterName } from '../lib/authorRole';
import { initials } from '../lib/initials';
import type { AuthorsProps } from '../protocol';
import styles from './Authors.module.css';

export default function Authors({ path, breadcrumbs, title, authors }: AuthorsProps): ReactNode {
  return (
    <>
      <Breadcrumbs items={breadcrumbs} current={{ label: title, href: path }} />
      <header className={styles.header}>
        <h1 className={styles.title}>{title}</h1>
        <p className={styles.lead}>
          The teachers, coaches, psychologists and writers behind our articles, and what each of them knows best.
        </p>
      </header>
      <ul className={styles.grid}>
        {authors.map((author) => (
          <li key={author.href} className={styles.author}>
            <div className={styles.identity}>
              {author.photo ? (
                <Picture picture={author.photo} slot="avatar" className={styles.photo} decorative />
              ) : (
                <span className={styles.monogram} aria-hidden="true">
                  {initials(author.name)}
                </span>
              )}
              <div>
                <h2 className={styles.name}>
                  <a href={author.href}>{author.name}</a>
                </h2>
                <p className={styles.role}>{roleAfterName(author.name, author.role)}</p>
              </div>
            </div>
            <p className={styles.summary}>{author.summary}</p>
            <p className={styles.count}>
              {author.articleCount === 1 ? '1 article' : `${author.articleCount} articles`}
            </p>
          </li>
        ))}
      </ul>
    </>
  );
}
