import type { ReactNode } from 'react';
import type { Link, SiteData } from '../../protocol';
import { Icon } from '../Icon/Icon';
import styles from './Footer.module.css';

/** The fixed pages every footer links to. */
export const INFO_LINKS: readonly Link[] = [
  { label: 'Authors', href: '/authors' },
  { label: 'About us', href: '/info/about-us' },
  { label: 'Privacy policy', href: '/privacy-policy' },
  { label: 'Terms', href: '/terms' },
  { label: 'Sitemap', href: '/sitemap' },
];

type Props = { readonly site: SiteData };

/**
 * The footer slice: every category (so the site is browsable without JavaScript), info pages,
 * contacts. On every page, so its columns are styled by position (Footer.module.css), not by a
 * class on each element.
 */
export function Footer({ site }: Props): ReactNode {
  const social = [
    { label: 'Video', href: site.social.video, icon: 'video' },
    { label: 'Social feed', href: site.social.feed, icon: 'feed' },
    { label: 'Photos', href: site.social.photo, icon: 'photo' },
  ] as const;
  return (
    <footer className={styles.footer}>
      <div className={styles.columns}>
        <FooterColumn title="Categories">
          {site.categories.map((category) => (
            <li key={category.key}>
              <a href={category.href}>{category.title}</a>
            </li>
          ))}
        </FooterColumn>
        <FooterColumn title="Info">
          {INFO_LINKS.map((link) => (
            <li key={link.href}>
              <a href={link.href}>{link.label}</a>
            </li>
          ))}
        </FooterColumn>
        <FooterColumn title="Contacts">
          {social.map((network) => (
            <li key={network.label}>
              <a href={network.href} rel="noopener me">
                <Icon name={network.icon} />
                {network.label}
              </a>
            </li>
          ))}
        </FooterColumn>
        <FooterColumn title="Mail">
          <li>
            <a href={`mailto:${site.contactEmail}`}>{site.contactEmail}</a>
          </li>
        </FooterColumn>
      </div>
      <p className={styles.copyright}>{`© ${site.year} ${site.brand}`}</p>
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
