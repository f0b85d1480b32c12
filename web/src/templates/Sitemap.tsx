import type { ReactNode } from 'react';
import { Breadcrumbs } from '../components/Breadcrumbs/Breadcrumbs';
import type { Link, SitemapProps } from '../protocol';
import styles from './Sitemap.module.css';

export default function Sitemap({ path, breadcrumbs, title, categories, authors, pages }: SitemapProps): ReactNode {
  return (
    <>
      <Breadcrumbs items={breadcrumbs} current={{ label: title, href: path }} />
      <h1 className={styles.title}>{title}</h1>
      <div className={styles.columns}>
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
        <section aria-labelledby="sitemap-authors">
          <h2 id="sitemap-authors" className={styles.heading}>
            Authors
          </h2>
          <Links links={authors} />
        </section>
        <section aria-labelledby="sitemap-pages">
          <h2 id="sitemap-pages" className={styles.heading}>
            Pages
          </h2>
          <Links links={pages} />
        </section>
      </div>
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
