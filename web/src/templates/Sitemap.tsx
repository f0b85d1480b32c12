import type { ReactNode } from 'react';
import { Breadcrumbs } from '../components/Breadcrumbs/Breadcrumbs';
import { Pagination } from '../components/Pagination/Pagination';
import type { Link, SitemapProps } from '../protocol';
import styles from './Sitemap.module.css';

export default function Sitemap(props: SitemapProps): ReactNode {
  const { path, breadcrumbs, title, categories, authors, pages, articles, pagination } = props;
  return (
    <>
      <Breadcrumbs items={breadcrumbs} current={{ label: title, href: path }} />
      <h1 className={styles.title}>{title}</h1>
      <div className={styles.columns}>
        {categories.length > 0 && (
          <section aria-labelledby="sitemap-categories" className={styles.wide}>
            <h2 id="sitemap-categories" className={styles.heading}>
              Categories
            </h2>
            <ul className={styles.tree}>
              {categories.map(({ category, subcategories }) => (
                <li key={category.href}>
                  <a className={styles.category} href={category.href}>
                    {category.label}
                  </a>
                  <ul className={styles.list}>
                    {subcategories.map(({ subcategory, subsubcategories }) => (
                      <li key={subcategory.href}>
                        <a href={subcategory.href}>{subcategory.label}</a>
                        {subsubcategories.length > 0 && <Links links={subsubcategories} />}
                      </li>
                    ))}
                  </ul>
                </li>
              ))}
            </ul>
          </section>
        )}
        {articles.length > 0 && (
          <section aria-labelledby="sitemap-articles" className={`${styles.wide} ${styles.articles}`}>
            <h2 id="sitemap-articles" className={styles.heading}>
              Articles
            </h2>
            {articles.map((group) => (
              <section key={group.category?.href ?? 'unfiled'} className={styles.group}>
                <h3 className={styles.groupHeading}>
                  {group.category ? (
                    <a className={styles.category} href={group.category.href}>
                      {group.category.label}
                    </a>
                  ) : (
                    'Other articles'
                  )}
                </h3>
                <Links links={group.articles} />
              </section>
            ))}
          </section>
        )}
        {authors.length > 0 && (
          <section aria-labelledby="sitemap-authors">
            <h2 id="sitemap-authors" className={styles.heading}>
              Authors
            </h2>
            <Links links={authors} />
          </section>
        )}
        {pages.length > 0 && (
          <section aria-labelledby="sitemap-pages">
            <h2 id="sitemap-pages" className={styles.heading}>
              Pages
            </h2>
            <Links links={pages} />
          </section>
        )}
      </div>
      <Pagination pagination={pagination} label="Pages of the sitemap" />
    </>
  );
}

function Links({ links }: { readonly links: readonly Link[] }): ReactNode {
  return (
    <ul className={styles.list}>
      {links.map((link) => (
        <li key={link.href}>
          <a href={link.href}>{link.label}</a>
        </li>
      ))}
    </ul>
  );
}
