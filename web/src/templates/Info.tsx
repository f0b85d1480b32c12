import type { ReactNode } from 'react';
import { Breadcrumbs } from '../components/Breadcrumbs/Breadcrumbs';
import type { InfoProps } from '../protocol';
import styles from './Info.module.css';

export default function Info({ path, breadcrumbs, title, bodyHtml }: InfoProps): ReactNode {
  return (
    <article className={styles.info}>
      <Breadcrumbs items={breadcrumbs} current={{ label: title, href: path }} />
      <h1 className={styles.title}>{title}</h1>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: Markdown rendered by the Rust builder, raw HTML sanitised with ammonia unless stillpoint.toml sets [markdown] unsafe_html = true. */}
      <div className="prose" dangerouslySetInnerHTML={{ __html: bodyHtml }} />
    </article>
  );
}
