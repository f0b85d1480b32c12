import type { ReactNode } from 'react';
import type { SiteData } from '../../protocol';
import { Icon, iconName } from '../Icon/Icon';
import styles from './Footer.module.css';

type Props = { readonly site: SiteData };

/**
 * The footer slice: every category (so the site is browsable without JavaScript), the Info links
 * and the networks of `[footer]` and `[site.social]`, the mail address. On every page, so its
 * columns are styled by position (Footer.module.css), not by a class on each element. A column
 * with nothing in it (no Info links, no networks) is left out.
 */
export function Footer({ site }: Props): ReactNode {
  const { titles, links, copyright } = site.footer;
  return (
    <footer className={styles.footer}>
      <div className={styles.columns}>
        <FooterColumn title={titles.categories}>
          {site.categories.map((category) => (
            <li key={category.key}>
              <a href={category.href}>{category.title}</a>
            </li>
          ))}
        </FooterColumn>
        {links.length > 0 && (
          <FooterColumn title={titles.info}>
            {links.map((link) => (
              <li key={`${link.href} ${link.label}`}>
                <a href={link.href}>{link.label}</a>
              </li>
            ))}
          </FooterColumn>
        )}
        {site.social.length > 0 && (
          <FooterColumn title={titles.contacts}>
            {site.social.map((network) => (
              <li key={`${network.href} ${network.label}`}>
                <a href={network.href} rel="noopener me">
                  <Icon name={iconName(network.icon)} />
                  {network.label}
                </a>
              </li>
            ))}
          </FooterColumn>
        )}
        <FooterColumn title={titles.mail}>
          <li>
            <a href={`mailto:${site.contactEmail}`}>{site.contactEmail}</a>
          </li>
        </FooterColumn>
      </div>
      <p className={styles.copyright}>{copyright}</p>
    </footer>
  );
}

function FooterColumn({ title, children }: { readonly title: string; readonly children: ReactNode }): ReactNode {
  return (
    <section>
      <h2>{title}</h2>
      <ul>{children}</ul>
    </section>
  );
}
