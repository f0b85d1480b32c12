import type { ReactNode } from 'react';
import { CardGrid } from '../components/CardGrid/CardGrid';
import { ShowMoreGrid } from '../components/ShowMoreGrid/ShowMoreGrid';
import type { HomeProps } from '../protocol';
import styles from './Home.module.css';

export default function Home({ featured, topStories, popular, more }: HomeProps): ReactNode {
  return (
    <div className={styles.home}>
      <section className={styles.hero} aria-labelledby="home-title">
        <h1 id="home-title" className={styles.title}>
          Guided meditations for a calmer you
        </h1>
        <p className={styles.lead}>
          Practical guidance on meditation, sleep, stress and focus, written by teachers, coaches and psychologists.
        </p>
        {featured.length > 0 && <CardGrid cards={featured} headingLevel={2} variant="featured" eager={4} />}
      </section>
      <HomeSection id="top-stories" title="Top Stories">
        <CardGrid cards={topStories} />
      </HomeSection>
      <HomeSection id="popular-articles" title="Popular Articles">
        <CardGrid cards={popular} variant="compact" />
      </HomeSection>
      <HomeSection id="more-stuff" title="Have More Awesome Stuff">
        <ShowMoreGrid cards={more} />
      </HomeSection>
    </div>
  );
}

type SectionProps = { readonly id: string; readonly title: string; readonly children: ReactNode };

function HomeSection({ id, title, children }: SectionProps): ReactNode {
  return (
    <section className={styles.section} aria-labelledby={id}>
      <h2 id={id} className={styles.sectionTitle}>
        {title}
      </h2>
      {children}
    </section>
  );
}
