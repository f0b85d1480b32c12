// Narrow windows (≤ 576px): a popover holding an accordion, one section per category.
import * as Accordion from '@radix-ui/react-accordion';
import * as Popover from '@radix-ui/react-popover';
import { type ReactNode, useId } from 'react';
import { MENU_TITLE, MenuIcon, type MenuVariantProps } from './ClassificationMenu';
import styles from './ClassificationMenu.module.css';

export function MenuNarrow({ categories, open, onOpenChange }: MenuVariantProps): ReactNode {
  const titleId = useId();
  const close = () => onOpenChange(false);
  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
      <Popover.Trigger className={styles.trigger}>
        <MenuIcon />
        {MENU_TITLE}
      </Popover.Trigger>
      <Popover.Content
        className={styles.panel}
        align="start"
        sideOffset={8}
        collisionPadding={8}
        aria-labelledby={titleId}
      >
        <h2 id={titleId} className={styles.title}>
          {MENU_TITLE}
        </h2>
        <Accordion.Root type="single" collapsible className={styles.accordion}>
          {categories.map((category) =>
            category.children.length > 0 ? (
              <Accordion.Item key={category.key} value={category.key} className={styles.section}>
                <Accordion.Header className={styles.sectionHeader}>
                  <Accordion.Trigger className={styles.sectionTrigger}>
                    {category.title}
                    <Chevron />
                  </Accordion.Trigger>
                </Accordion.Header>
                <Accordion.Content className={styles.sectionContent}>
                  <ul className={styles.links}>
                    {category.children.map((child) => (
                      <li key={child.key}>
                        <a className={styles.link} href={child.href} onClick={close}>
                          {child.title}
                        </a>
                      </li>
                    ))}
                    <li>
                      <a className={styles.more} href={category.href} onClick={close}>
                        More<span className="visually-hidden"> in {category.title}</span>
                      </a>
                    </li>
                  </ul>
                </Accordion.Content>
              </Accordion.Item>
            ) : (
              <a key={category.key} className={styles.sectionTrigger} href={category.href} onClick={close}>
                {category.title}
              </a>
            ),
          )}
        </Accordion.Root>
      </Popover.Content>
    </Popover.Root>
  );
}

function Chevron(): ReactNode {
  return (
    <svg className={styles.chevron} width="14" height="14" viewBox="0 0 14 14" aria-hidden="true" focusable="false">
      <path d="M3 5l4 4 4-4" stroke="currentColor" strokeWidth="1.8" fill="none" strokeLinecap="round" />
    </svg>
  );
}
