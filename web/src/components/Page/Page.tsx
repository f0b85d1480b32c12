import type { ComponentType, ReactNode } from 'react';
import type { Sponsored } from '../../protocol';
import { SponsoredLinks } from '../SponsoredLinks/SponsoredLinks';
import styles from './Page.module.css';

type Props<P> = {
  readonly template: ComponentType<P>;
  readonly props: P;
};

/**
 * The page region (`#sp-page`): the sponsored block, then `<main>` holding the template. Shared by
 * the server render and hydration, so both produce the same tree.
 */
export function Page<P extends { readonly sponsored: Sponsored }>({ template: Template, props }: Props<P>): ReactNode {
  return (
    <>
      <SponsoredLinks sponsored={props.sponsored} />
      <main id="main" tabIndex={-1} className={styles.main}>
        <Template {...props} />
      </main>
    </>
  );
}
