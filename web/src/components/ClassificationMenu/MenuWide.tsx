// Wider windows (> 576px): a dropdown menu with one submenu per category.
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { type ReactNode, type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { MENU_TITLE, MenuIcon, type MenuVariantProps } from './ClassificationMenu';
import styles from './ClassificationMenu.module.css';
import { EDGE_PX, FLYOUT_OFFSET_PX, panelAlignOffset, typeaheadText } from './placement';

export function MenuWide({ categories, open, onOpenChange, focusFirstItem }: MenuVariantProps): ReactNode {
  const content = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const alignOffset = usePanelAlignOffset(button, open);

  // Radix focuses the first item itself when its trigger is used from the keyboard; the very first
  // opening goes through the plain button (before this chunk loaded), so do it here.
  useEffect(() => {
    if (open && focusFirstItem) content.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open, focusFirstItem]);

  return (
    <DropdownMenu.Root open={open} onOpenChange={onOpenChange} modal={false}>
      <DropdownMenu.Trigger className={styles.trigger} ref={button}>
        <MenuIcon />
        {MENU_TITLE}
      </DropdownMenu.Trigger>
      <DropdownMenu.Content
        className={`${styles.panel} ${styles.panelWide}`}
        align="start"
        alignOffset={alignOffset}
        sideOffset={8}
        collisionPadding={EDGE_PX}
        loop
        ref={content}
      >
        <DropdownMenu.Label className={styles.title}>{MENU_TITLE}</DropdownMenu.Label>
        {categories.map((category) =>
          category.children.length > 0 ? (
            <DropdownMenu.Sub key={category.key}>
              <DropdownMenu.SubTrigger className={styles.item} textValue={typeaheadText(category.title)}>
                {category.title}
                <span className={styles.submenuArrow} aria-hidden="true">
                  ›
                </span>
              </DropdownMenu.SubTrigger>
              <DropdownMenu.Portal>
                <DropdownMenu.SubContent
                  className={`${styles.panel} ${styles.flyout}`}
                  sideOffset={FLYOUT_OFFSET_PX}
                  collisionPadding={EDGE_PX}
                  avoidCollisions
                  loop
                >
                  {category.children.map((child) => (
                    <DropdownMenu.Item
                      key={child.key}
                      className={styles.item}
                      textValue={typeaheadText(child.title)}
                      asChild
                    >
                      <a href={child.href}>{child.title}</a>
                    </DropdownMenu.Item>
                  ))}
                  <DropdownMenu.Separator className={styles.separator} />
                  <DropdownMenu.Item className={styles.item} textValue="More" asChild>
                    <a href={category.href}>
                      More<span className="visually-hidden"> in {category.title}</span>
                    </a>
                  </DropdownMenu.Item>
                </DropdownMenu.SubContent>
              </DropdownMenu.Portal>
            </DropdownMenu.Sub>
          ) : (
            <DropdownMenu.Item
              key={category.key}
              className={styles.item}
              textValue={typeaheadText(category.title)}
              asChild
            >
              <a href={category.href}>{category.title}</a>
            </DropdownMenu.Item>
          ),
        )}
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}

/** The panel's `alignOffset` for the window's current width, measured when it opens and on resize. */
function usePanelAlignOffset(button: RefObject<HTMLButtonElement | null>, open: boolean): number {
  const [offset, setOffset] = useState(0);
  useLayoutEffect(() => {
    if (!open) return;
    const measure = () => {
      const left = button.current?.getBoundingClientRect().left ?? 0;
      const rem = Number.parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
      setOffset(panelAlignOffset(left, document.documentElement.clientWidth, rem));
    };
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [button, open]);
  return offset;
}
