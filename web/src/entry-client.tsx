// The page's first script, kept small: the page paints before hydration's JavaScript is fetched.
// It starts the page's data, the site data and the template's chunk, and loads hydration
// (hydrate.tsx) after the first paint.
import './styles/tokens.css';
import './styles/global.css';
import './runtime/runtime.css';
import { readPageAttributes } from './runtime/document';
import { afterFirstPaint, startFetches } from './runtime/early';

const page = readPageAttributes(document.body);
if (page) {
  afterFirstPaint(() => {
    const early = startFetches(page);
    import('./hydrate')
      .then(({ hydrate }) => hydrate(page, early))
      .catch((error: unknown) => console.error('The page could not be hydrated:', error));
  });
}
