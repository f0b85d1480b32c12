import type { ReactNode } from 'react';
import { Breadcrumbs } from '../components/Breadcrumbs/Breadcrumbs';
import type { InfoProps } from '../protocol';
import styles from './Info.module.css';

export default function Info({ path, breadcrumbs, title, bodyHtml }: InfoProps): ReactNode {
  return (
    <article className={styles.info}>
      <Breadcrumbs items={breadcrumbs} current={{ label: title, href: path }} />
      <h1 className={styles.title}>{title}</h1>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: Markdown rendered and sanitised by the Rust builder. */}
      <div className="prose" dangerouslySetInnerHTML={{ __html: bodyHtml }} />
    </article>
  );
}
