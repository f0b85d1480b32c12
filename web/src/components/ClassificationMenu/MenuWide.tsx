// Wider windows (> 576px): a dropdown menu with one submenu per category.
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { type ReactNode, useEffect, useRef } from 'react';
import { MENU_TITLE, MenuIcon, type MenuVariantProps } from './ClassificationMenu';
import styles from './ClassificationMenu.module.css';

export function MenuWide({ categories, open, onOpenChange, focusFirstItem }: MenuVariantProps): ReactNode {
  const content = useRef<HTMLDivElement>(null);

  // Radix focuses the first item itself when its trigger is used from the keyboard; the very first
  // opening goes through the plain button (before this chunk loaded), so do it here.
  useEffect(() => {
    if (open && focusFirstItem) content.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open, focusFirstItem]);

  return (
    <DropdownMenu.Root open={open} onOpenChange={onOpenChange} modal={false}>
      <DropdownMenu.Trigger className={styles.trigger}>
        <MenuIcon />
        {MENU_TITLE}
      </DropdownMenu.Trigger>
      <DropdownMenu.Content
        className={styles.panel}
        align="start"
        sideOffset={8}
        collisionPadding={8}
        loop
        ref={content}
      >
        <DropdownMenu.Label className={styles.title}>{MENU_TITLE}</DropdownMenu.Label>
        {categories.map((category) =>
          category.children.length > 0 ? (
            <DropdownMenu.Sub key={category.key}>
              <DropdownMenu.SubTrigger className={styles.item}>
                {category.title}
                <span className={styles.submenuArrow} aria-hidden="true">
                  ›
                </span>
              </DropdownMenu.SubTrigger>
              <DropdownMenu.Portal>
                <DropdownMenu.SubContent className={styles.panel} sideOffset={4} collisionPadding={8} loop>
                  {category.children.map((child) => (
                    <DropdownMenu.Item key={child.key} className={styles.item} asChild>
                      <a href={child.href}>{child.title}</a>
                    </DropdownMenu.Item>
                  ))}
                  <DropdownMenu.Separator className={styles.separator} />
                  <DropdownMenu.Item className={styles.item} asChild>
                    <a href={category.href}>
                      More<span className="visually-hidden"> in {category.title}</span>
                    </a>
                  </DropdownMenu.Item>
                </DropdownMenu.SubContent>
              </DropdownMenu.Portal>
            </DropdownMenu.Sub>
          ) : (
            <DropdownMenu.Item key={category.key} className={styles.item} asChild>
              <a href={category.href}>{category.title}</a>
            </DropdownMenu.Item>
          ),
        )}
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}
