// The critical styles: the part of the site stylesheet the first paint needs (tokens, base
// elements, the header), inlined in every page's <head> by the Rust builder (from
// dist/client/critical.css, with its CSP hash). The full stylesheet then loads without blocking
// rendering; until it applies, the page and footer regions stay hidden (see REVEAL), so nothing is
// ever shown half-styled. Build-time code: the Vite plugin in vite.config.ts calls `criticalCss`.
import postcss, { type AtRule, type Declaration, type Root, type Rule } from 'postcss';

/**
 * The CSS Module classes of the header's server HTML, by module (paths relative to web/): rules
 * whose selectors use only these (and global classes) are critical. critical.test.tsx checks the
 * list against the rendered header.
 */
export const CRITICAL_CLASSES: Readonly<Record<string, readonly string[]>> = {
  'src/components/Header/Header.module.css': ['header', 'inner', 'logo', 'brand', 'menu', 'search'],
  'src/components/SearchBox/SearchBox.module.css': ['search', 'input', 'icon'],
  'src/components/ClassificationMenu/ClassificationMenu.module.css': ['trigger', 'icon', 'noScript'],
};

/** Where a scoped class name comes from: its CSS Module and its name there. */
export type ScopedClass = { readonly file: string; readonly local: string };

/** Global classes (not from a module) that are not needed before the full stylesheet applies. */
const DEFERRED_GLOBALS = [/^prose$/, /^sp-/];

/**
 * Hides the page and footer until the full stylesheet (global.css: `#sp-page, #sp-footer`)
 * shows them; should it never load, they are shown after 3 s with the critical styles.
 */
export const REVEAL =
  '#sp-page,#sp-footer{visibility:hidden;animation:sp-reveal 0s 3s forwards}@keyframes sp-reveal{to{visibility:visible}}';

const CLASS = /\.(-?[_a-zA-Z][\w-]*)/g;

/** Selectors the first paint never needs: hover states, and the site sheet's reveal (global.css). */
const DEFERRED_SELECTORS = [/:hover\b/, /^#sp-(page|footer)$/];

/**
 * The critical subset of `css` (the whole site stylesheet, minified). `moduleOf` says which CSS
 * Module class a scoped class name is (undefined for a global class).
 */
export function criticalCss(css: string, moduleOf: (className: string) => ScopedClass | undefined): string {
  const keepSelector = (selector: string): boolean =>
    !DEFERRED_SELECTORS.some((re) => re.test(selector)) &&
    [...selector.matchAll(CLASS)].every(([, name = '']) => {
      const scoped = moduleOf(name);
      if (scoped === undefined) return !DEFERRED_GLOBALS.some((re) => re.test(name));
      return CRITICAL_CLASSES[scoped.file]?.includes(scoped.local) ?? false;
    });
  const root = postcss.parse(css);
  root.walkAtRules((rule: AtRule) => {
    if (!['media', 'supports', 'layer'].includes(rule.name)) rule.remove();
  });
  root.walkRules((rule: Rule) => {
    const kept = rule.selectors.filter(keepSelector);
    if (kept.length === 0) rule.remove();
    else if (kept.length < rule.selectors.length) rule.selectors = kept;
  });
  root.walkAtRules((rule: AtRule) => {
    if (!rule.nodes || rule.nodes.length === 0) rule.remove();
  });
  root.walkComments((comment) => {
    comment.remove();
  });
  pruneUnusedProperties(root);
  return `${root.toString().trim()}${REVEAL}`;
}

const VAR = /var\((--[\w-]+)/g;

/** Drops the custom properties (design tokens) that nothing kept uses, directly or through another. */
function pruneUnusedProperties(root: Root): void {
  const definitions = new Map<string, Declaration[]>();
  const used = new Set<string>();
  const pending: string[] = [];
  const use = (value: string) => {
    for (const [, name = ''] of value.matchAll(VAR)) {
      if (!used.has(name)) {
        used.add(name);
        pending.push(name);
      }
    }
  };
  root.walkDecls((decl) => {
    if (decl.prop.startsWith('--') && !decl.prop.startsWith('--lightningcss-')) {
      definitions.set(decl.prop, [...(definitions.get(decl.prop) ?? []), decl]);
    } else {
      use(decl.value);
    }
  });
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    for (const decl of definitions.get(name) ?? []) use(decl.value);
  }
  for (const [name, decls] of definitions) {
    if (!used.has(name)) for (const decl of decls) decl.remove();
  }
}
