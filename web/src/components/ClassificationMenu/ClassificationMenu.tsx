import { type ComponentType, type KeyboardEvent, type MouseEvent, type ReactNode, useEffect, useState } from 'react';
import { useMediaQuery } from '../../hooks/useMediaQuery';
import type { TopicNode } from '../../protocol';
import { NARROW_QUERY } from '../../styles/breakpoints';
import { Icon } from '../Icon/Icon';
import styles from './ClassificationMenu.module.css';

export const MENU_TITLE = 'Classification';

export type MenuVariantProps = {
  readonly categories: readonly TopicNode[];
  readonly open: boolean;
  readonly onOpenChange: (open: boolean) => void;
  /** Opened from the keyboard: focus the first item (WAI-ARIA menu button). */
  readonly focusFirstItem: boolean;
};

type Variant = 'narrow' | 'wide';
type VariantComponent = ComponentType<MenuVariantProps>;

// The open menu (Radix: popover + accordion when narrow, dropdown with submenus when wide) is only
// needed once someone opens it, so it is loaded on first use; until then the button is plain HTML.
const loaders: Record<Variant, () => Promise<VariantComponent>> = {
  narrow: () => import('./MenuNarrow').then((module) => module.MenuNarrow),
  wide: () => import('./MenuWide').then((module) => module.MenuWide),
};

type Props = { readonly categories: readonly TopicNode[] };

/** Without JavaScript the button is replaced by a link to the sitemap, which lists every topic. */
export const NO_SCRIPT_HREF = '/sitemap';

/**
 * The Classification menu button. It works once the page is hydrated; without JavaScript a plain
 * link to the sitemap (`@media (scripting: none)`) takes its place, and the footer lists every category.
 */
export function ClassificationMenu({ categories }: Props): ReactNode {
  const variant: Variant = useMediaQuery(NARROW_QUERY) ? 'narrow' : 'wide';
  const [loaded, setLoaded] = useState<Partial<Record<Variant, VariantComponent>>>({});
  const [open, setOpen] = useState(false);
  const [focusFirstItem, setFocusFirstItem] = useState(false);

  // Crossing the breakpoint swaps the widget: close rather than carry an open menu across.
  useEffect(() => {
    if (variant) setOpen(false);
  }, [variant]);

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) setFocusFirstItem(false);
  };

  const Menu = loaded[variant];
  if (Menu) {
    return <Menu categories={categories} open={open} onOpenChange={onOpenChange} focusFirstItem={focusFirstItem} />;
  }

  const openFirstTime = (fromKeyboard: boolean) => {
    setFocusFirstItem(fromKeyboard);
    loaders[variant]().then(
      (component) => {
        setLoaded((current) => ({ ...current, [variant]: component }));
        setOpen(true);
      },
      (error: unknown) => console.error('Classification menu failed to load', error),
    );
  };

  return (
    <>
      <button
        type="button"
        className={styles.trigger}
        aria-haspopup={variant === 'narrow' ? 'dialog' : 'menu'}
        aria-expanded={false}
        data-state="closed"
        // A click with detail 0 comes from Enter or Space.
        onClick={(event: MouseEvent<HTMLButtonElement>) => openFirstTime(event.detail === 0)}
        onKeyDown={(event: KeyboardEvent<HTMLButtonElement>) => {
          // A menu button opens on ArrowDown too (WAI-ARIA APG), from the very first keypress.
          if (variant === 'wide' && event.key === 'ArrowDown') {
            event.preventDefault();
            openFirstTime(true);
          }
        }}
        onPointerEnter={() => void loaders[variant]().catch(() => undefined)}
      >
        <MenuIcon />
        {MENU_TITLE}
      </button>
      <a className={styles.noScript} href={NO_SCRIPT_HREF}>
        <MenuIcon />
        {MENU_TITLE}
      </a>
    </>
  );
}

/** The three-line icon shared by every variant of the trigger. */
export function MenuIcon(): ReactNode {
  return <Icon name="menu" className={styles.icon} />;
}
