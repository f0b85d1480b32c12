// What the runtime asks of the UI: the React side (hydrate.tsx) implements this, so the
// runtime itself stays free of React.
import type { SiteData, TemplateName, TemplateProps } from '../protocol';

export type View = {
  /**
   * Loads a template's chunk (with its CSS). Rejects with `MissingTemplateError` for a name the
   * bundle has no chunk for, or with the import's error when the chunk fails to load.
   */
  prepare(template: string): Promise<void>;
  /** Renders a prepared template with its props into the page region, synchronously. */
  renderPage(template: string, props: TemplateProps[TemplateName]): void;
  /** Re-renders the header and footer with new site data (a content deploy changed it). */
  renderSite(site: SiteData): void;
};

/** A page-data names a template the bundle does not have (the spec's "missing component chunk"). */
export class MissingTemplateError extends Error {
  constructor(template: string) {
    super(`missing component chunk for template "${template}"`);
    this.name = 'MissingTemplateError';
  }
}
