import type { ReactNode } from 'react';
import { CardGrid } from '../components/CardGrid/CardGrid';
import { ShowMoreGrid } from '../components/ShowMoreGrid/ShowMoreGrid';
import type { ArticleCard, HomeProps } from '../protocol';
import styles from './Home.module.css';

export default function Home({ heading, lead, titles, featured, topStories, popular, more }: HomeProps): ReactNode {
  return (
    <div className={styles.home}>
      <section className={styles.hero} aria-labelledby="home-title">
        <h1 id="home-title" className={styles.title}>
          {heading}
        </h1>
        {lead !== '' && <p className={styles.lead}>{lead}</p>}
        {featured.length > 0 && <CardGrid cards={featured} headingLevel={2} variant="featured" eager={4} />}
      </section>
      <HomeSection id="top-stories" title={titles.topStories} cards={topStories}>
        <CardGrid cards={topStories} />
      </HomeSection>
      <HomeSection id="popular-articles" title={titles.popular} cards={popular}>
        <CardGrid cards={popular} variant="compact" />
      </HomeSection>
      <HomeSection id="more-stuff" title={titles.more} cards={more}>
        <ShowMoreGrid cards={more} />
      </HomeSection>
    </div>
  );
}

type SectionProps = {
  readonly id: string;
  readonly title: string;
  /** The section's articles: none, no section (no heading over nothing). */
  readonly cards: readonly ArticleCard[];
  readonly children: ReactNode;
};

function HomeSection({ id, title, cards, children }: SectionProps): ReactNode {
  if (cards.length === 0) return null;
  return (
    <section className={styles.section} aria-labelledby={id}>
      <h2 id={id} className={styles.sectionTitle}>
        {title}
      </h2>
      {children}
    </section>
  );
}
