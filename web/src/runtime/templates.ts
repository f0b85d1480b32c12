// The template chunks: one lazy chunk per template (`src/templates/{Name}.tsx` in the Vite
// manifest), loaded once and kept.
import type { ComponentType } from 'react';
import type { TemplateName, TemplateProps } from '../protocol';
import { MissingTemplateError } from './view';

export type PageProps = TemplateProps[TemplateName];
type TemplateModule = { default: ComponentType<PageProps> };

const templateChunks = import.meta.glob<TemplateModule>(['../templates/*.tsx', '!../templates/*.test.tsx']);
const loadedTemplates = new Map<string, ComponentType<PageProps>>();

/** Template `name`'s component, loading its chunk the first time. */
export async function loadTemplate(name: string): Promise<ComponentType<PageProps>> {
  const known = loadedTemplates.get(name);
  if (known) return known;
  const load = templateChunks[`../templates/${name}.tsx`];
  if (!load) throw new MissingTemplateError(name);
  const template = (await load()).default;
  loadedTemplates.set(name, template);
  return template;
}

/** Template `name`'s component if its chunk has loaded. */
export function loadedTemplate(name: string): ComponentType<PageProps> | undefined {
  return loadedTemplates.get(name);
}
