import type { ReactNode } from 'react';
import { Breadcrumbs } from '../components/Breadcrumbs/Breadcrumbs';
import { CardGrid } from '../components/CardGrid/CardGrid';
import { Pagination } from '../components/Pagination/Pagination';
import { Picture } from '../components/Picture/Picture';
import { roleAfterName } from '../lib/authorRole';
import { initials } from '../lib/initials';
import type { AuthorProps } from '../protocol';
import styles from './Author.module.css';

export default function Author(props: AuthorProps): ReactNode {
  const { path, breadcrumbs, name, role, photo, bioHtml, articles, total, pagination } = props;
  return (
    <>
      <Breadcrumbs items={breadcrumbs} current={{ label: name, href: path }} />
      <header className={styles.header}>
        <div className={styles.identity}>
          {photo ? (
            <Picture picture={photo} slot="author" className={styles.photo} eager />
          ) : (
            <span className={styles.monogram} aria-hidden="true">
              {initials(name)}
            </span>
          )}
          <div className={styles.titles}>
            <h1 className={styles.name}>{name}</h1>
            {role && <p className={styles.role}>{roleAfterName(name, role)}</p>}
          </div>
        </div>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: Markdown rendered by the Rust builder, raw HTML sanitised with ammonia unless stillpoint.toml sets [markdown] unsafe_html = true. */}
        <div className="prose" dangerouslySetInnerHTML={{ __html: bioHtml }} />
      </header>
      {total > 0 ? (
        <section className={styles.articles} aria-labelledby="author-articles">
          <div className={styles.articlesHeader}>
            <h2 id="author-articles" className={styles.articlesTitle}>{`Articles by ${name}`}</h2>
            <p className={styles.count}>{total === 1 ? '1 article' : `${total} articles`}</p>
          </div>
          <CardGrid cards={articles} eager={3} />
        </section>
      ) : (
        <p className={styles.none}>
          {`${name} has not published an article here yet. `}
          <a href="/authors">Meet our other experts</a> or <a href="/sitemap">browse every article</a>.
        </p>
      )}
      <Pagination pagination={pagination} label={`Pages of articles by ${name}`} />
    </>
  );
}
