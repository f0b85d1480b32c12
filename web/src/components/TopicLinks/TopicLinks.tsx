import type { ReactNode } from 'react';
import type { ArticleProps } from '../../protocol';
import { LinkPills } from '../LinkPills/LinkPills';
import styles from './TopicLinks.module.css';

type Props = Pick<ArticleProps, 'topics' | 'tags'>;

/** Where an article is filed: its Category → Subcategory pairs and its sub-subcategory tags. */
export function TopicLinks({ topics, tags }: Props): ReactNode {
  if (topics.length === 0 && tags.length === 0) return null;
  return (
    <div className={styles.topics}>
      {topics.length > 0 && (
        <section className={styles.group}>
          <h2 className={styles.title}>Filed under</h2>
          <ul className={styles.list}>
            {topics.map(({ category, subcategory }) => (
              <li key={subcategory.href}>
                <a href={category.href}>{category.label}</a>
                <span aria-hidden="true"> → </span>
                <a href={subcategory.href}>{subcategory.label}</a>
              </li>
            ))}
          </ul>
        </section>
      )}
      {tags.length > 0 && (
        <section className={styles.group}>
          <h2 className={styles.title}>Tags</h2>
          <LinkPills links={tags} />
        </section>
      )}
    </div>
  );
}
