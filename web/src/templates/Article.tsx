import { type ReactNode, useEffect, useRef } from 'react';
import { ArticleMeta } from '../components/ArticleMeta/ArticleMeta';
import { AudioPlayer } from '../components/AudioPlayer/AudioPlayer';
import { Breadcrumbs } from '../components/Breadcrumbs/Breadcrumbs';
import { CardGrid } from '../components/CardGrid/CardGrid';
import { CopyLinkButton } from '../components/CopyLinkButton/CopyLinkButton';
import { liveEmbeds } from '../components/Embed/embeds';
import { Picture } from '../components/Picture/Picture';
import { TableOfContents, TOC_MIN_ENTRIES } from '../components/TableOfContents/TableOfContents';
import { TopicLinks } from '../components/TopicLinks/TopicLinks';
import type { ArticleProps } from '../protocol';
import styles from './Article.module.css';

export default function Article(props: ArticleProps): ReactNode {
  const { path, breadcrumbs, title, description, image, audio, bodyHtml, toc, related, topics, tags, url } = props;
  const hasToc = toc.length >= TOC_MIN_ENTRIES;
  // The body's video facades load their player on click (components/Embed).
  const body = useRef<HTMLDivElement>(null);
  useEffect(() => (body.current ? liveEmbeds(body.current) : undefined), []);
  return (
    <>
      <article className={styles.article}>
        <header className={styles.header}>
          <Breadcrumbs items={breadcrumbs} current={{ label: title, href: path }} />
          {props.draft && (
            <p className={styles.draft} data-draft="">
              Draft
            </p>
          )}
          <h1 className={styles.title}>{title}</h1>
          {description && <p className={styles.lead}>{description}</p>}
          <ArticleMeta
            author={props.author}
            date={props.date}
            updated={props.updated}
            readingMinutes={props.readingMinutes}
          >
            <CopyLinkButton url={url} />
          </ArticleMeta>
          {/* A guided meditation's recording comes first, under the byline: it is what the page is for. */}
          {audio && <AudioPlayer key={audio.src} audio={audio} title={title} />}
        </header>
        {/* The cover is the page's LCP image: fetched first, never lazy. */}
        {image && <Picture picture={image} slot="cover" className={styles.cover} priority />}
        <div className={styles.content} data-toc={hasToc ? 'shown' : 'hidden'}>
          {hasToc && (
            <div className={styles.toc}>
              <TableOfContents entries={toc} />
            </div>
          )}
          <div
            ref={body}
            className={`prose ${styles.body}`}
            data-body=""
            // biome-ignore lint/security/noDangerouslySetInnerHtml: Markdown rendered by the Rust builder, raw HTML sanitised with ammonia unless stillpoint.toml sets [markdown] unsafe_html = true.
            dangerouslySetInnerHTML={{ __html: bodyHtml }}
          />
        </div>
        <footer className={styles.footer}>
          <TopicLinks topics={topics} tags={tags} />
        </footer>
      </article>
      {related.length > 0 && (
        <section className={styles.related} aria-labelledby="related-articles">
          <h2 id="related-articles" className={styles.relatedTitle}>
            Related articles
          </h2>
          <CardGrid cards={related} density="dense" />
        </section>
      )}
    </>
  );
}
