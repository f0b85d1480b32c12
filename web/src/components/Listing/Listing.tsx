import type { ReactNode } from 'react';
import type { ListingProps } from '../../protocol';
import { Breadcrumbs } from '../Breadcrumbs/Breadcrumbs';
import { CardGrid } from '../CardGrid/CardGrid';
import { LinkPills } from '../LinkPills/LinkPills';
import { Pagination } from '../Pagination/Pagination';
import styles from './Listing.module.css';

type Props = ListingProps & {
  /** Accessible name of the child-topic links, e.g. "Subcategories". */
  readonly childrenLabel: string;
};

/** The body of the Category, Subcategory and Subsubcategory templates. */
export function Listing(props: Props): ReactNode {
  const { path, breadcrumbs, title, description, articles, total, pagination, cover, childrenLabel } = props;
  // `children` here is the protocol's list of child topics, not React children.
  const subtopics = props.children;
  const pageNote = pagination.pages > 1 ? `, page ${pagination.page} of ${pagination.pages}` : '';
  return (
    <>
      <Breadcrumbs items={breadcrumbs} current={{ label: title, href: path }} />
      <header className={styles.header}>
        <div className={styles.intro}>
          <h1 className={styles.title}>{title}</h1>
          {description && <p className={styles.description}>{description}</p>}
        </div>
        {cover && (
          // Above the fold on every width, often the largest paint: fetched first.
          <img
            className={styles.cover}
            src={cover}
            alt=""
            width={480}
            height={270}
            fetchPriority="high"
            decoding="async"
          />
        )}
      </header>
      {subtopics.length > 0 && (
        <nav className={styles.subtopics} aria-label={childrenLabel}>
          <LinkPills links={subtopics} />
        </nav>
      )}
      <section className={styles.articles} aria-labelledby="listing-articles">
        <div className={styles.articlesHeader}>
          <h2 id="listing-articles" className={styles.articlesTitle}>
            Articles
          </h2>
          <p className={styles.count}>{`${total} ${total === 1 ? 'article' : 'articles'}${pageNote}`}</p>
        </div>
        {articles.length > 0 ? (
          <CardGrid cards={articles} eager={3} />
        ) : (
          <p className={styles.empty}>No articles here yet. Try a neighbouring topic.</p>
        )}
      </section>
      <Pagination pagination={pagination} label={`Pages of ${title}`} />
    </>
  );
}
