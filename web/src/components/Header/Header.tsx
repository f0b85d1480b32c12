import type { ReactNode } from 'react';
import type { SiteData } from '../../protocol';
import { ClassificationMenu } from '../ClassificationMenu/ClassificationMenu';
import { SearchBox } from '../SearchBox/SearchBox';
import styles from './Header.module.css';

type Props = { readonly site: SiteData };

/**
 * The header slice: rendered once per build and stitched into every page. The owner's
 * `[header] links`, when there are any, sit beside the menu on wide screens and on a row of their
 * own under the logo on narrow ones (the grid places them); they come last in the markup, so the
 * elements before them, and the ids React gives them, are the same with or without links.
 */
export function Header({ site }: Props): ReactNode {
  return (
    <header className={styles.header}>
      <div className={styles.inner}>
        <a className={styles.logo} href="/">
          <img src={site.logo} width={32} height={32} alt={`${site.brand} home`} />
          <span className={styles.brand} aria-hidden="true">
            {site.brand}
          </span>
        </a>
        <nav className={styles.menu} aria-label="Classification">
          <ClassificationMenu categories={site.categories} />
        </nav>
        <div className={styles.search}>
          <SearchBox manifestUrl={site.searchManifest} emptyImage={site.searchEmptyImage} />
        </div>
        {site.headerLinks.length > 0 && (
          <nav className={styles.links} aria-label="Site">
            <ul>
              {site.headerLinks.map((link) => (
                <li key={`${link.href} ${link.label}`}>
                  <a href={link.href}>{link.label}</a>
                </li>
              ))}
            </ul>
          </nav>
        )}
      </div>
    </header>
  );
}
