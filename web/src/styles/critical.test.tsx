import { describe, expect, it } from 'vitest';
import menu from '../components/ClassificationMenu/ClassificationMenu.module.css';
import header from '../components/Header/Header.module.css';
import search from '../components/SearchBox/SearchBox.module.css';
import { renderSlices } from '../entry-server';
import { site } from '../test/fixtures';
import { CRITICAL_CLASSES, criticalCss, REVEAL, type ScopedClass } from './critical';

// The header's CSS Modules, keyed as CRITICAL_CLASSES is (relative to web/).
const modules: Record<string, Record<string, string>> = {
  'src/components/Header/Header.module.css': header,
  'src/components/SearchBox/SearchBox.module.css': search,
  'src/components/ClassificationMenu/ClassificationMenu.module.css': menu,
};
/** A CSS Module class as Vitest names them (`_local_hash`); any other class is global. */
const MODULE_CLASS = /^_([\w-]+)_[0-9a-f]{6}$/;

/** Which of the header's modules scoped `name` comes from (Vitest's modules name any key asked). */
function scopedClass(name: string): ScopedClass | undefined {
  const local = MODULE_CLASS.exec(name)?.[1] ?? '';
  const file = Object.keys(modules).find((f) => modules[f]?.[local] === name);
  return file === undefined ? undefined : { file, local };
}

describe('critical styles', () => {
  it('cover every module class of the header as the server renders it', () => {
    const html = renderSlices(site).header;
    const classes = [...html.matchAll(/class="([^"]*)"/g)].flatMap(([, list = '']) => list.split(/\s+/));
    const moduleClasses = classes.filter((name) => MODULE_CLASS.test(name));
    expect(moduleClasses.length).toBeGreaterThan(5);
    for (const name of moduleClasses) {
      const found = scopedClass(name);
      expect(found, `${name}: a module the header uses is missing from CRITICAL_CLASSES`).toBeDefined();
      if (found) expect(CRITICAL_CLASSES[found.file], `${found.file} .${found.local}`).toContain(found.local);
    }
  });

  it('keep global and header rules, drop other modules, hover, the reveal, keyframes and unused tokens', () => {
    const moduleOf = (name: string): ScopedClass | undefined =>
      ({
        inner_1: { file: 'src/components/Header/Header.module.css', local: 'inner' },
        popup_2: { file: 'src/components/SearchBox/SearchBox.module.css', local: 'popup' },
        card_3: { file: 'src/components/ArticleCard/ArticleCard.module.css', local: 'card' },
      })[name];
    const css = [
      ':root{--used:1px;--via:var(--used);--unused:2px;color-scheme:light dark}',
      'body{margin:var(--via)}',
      '.inner_1,.card_3{gap:1px}',
      '.inner_1 .popup_2{top:0}',
      '.card_3:hover{color:red}',
      'a,a:hover{color:blue}',
      '#sp-page,#sp-footer{visibility:visible}',
      '.prose h2{margin:0}',
      '.visually-hidden{width:1px}',
      '@media (min-width:40em){.inner_1{gap:2px}.card_3{gap:3px}}',
      '@media print{.card_3{display:none}}',
      '@keyframes spin{to{rotate:1turn}}',
    ].join('');
    expect(criticalCss(css, moduleOf)).toBe(
      ':root{--used:1px;--via:var(--used);color-scheme:light dark}body{margin:var(--via)}.inner_1{gap:1px}a{color:blue}' +
        '.visually-hidden{width:1px}@media (min-width:40em){.inner_1{gap:2px}}' +
        REVEAL,
    );
  });
});
