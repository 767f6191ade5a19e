// Rendered once at build time (vite.config.ts), never in the browser: the sign-in page as HTML with the styles it
// uses, which the service sends to a browser without a session, so the form shows before the first script has run.
// main.tsx then draws the same page over it, keeping what was typed (takePrerenderedToken).
import { renderToStaticMarkup, renderToString } from 'react-dom/server';
import { createDOMRenderer, RendererProvider, renderToStyleElements, SSRProvider, webDarkTheme } from '@fluentui/react-components';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { ThemeRoot } from './components/ThemeRoot';
import { SignInPage } from './pages/SignInPage';

export { PRERENDERED } from './prerendered';

/** The sign-in page's markup and its style elements (each marked `data-prerendered`, for main.tsx to remove). */
export function renderSignIn(): { markup: string; styles: string } {
  const renderer = createDOMRenderer();
  const markup = renderToString(
    <RendererProvider renderer={renderer}>
      <SSRProvider>
        <ThemeRoot>
          <QueryClientProvider client={new QueryClient()}>
            <MemoryRouter initialEntries={['/sign-in']}>
              <SignInPage />
            </MemoryRouter>
          </QueryClientProvider>
        </ThemeRoot>
      </SSRProvider>
    </RendererProvider>,
  );
  if (!/<input[^>]*autofocus=""[^>]*name="token"/.test(markup)) throw new Error('the prerendered sign-in page has no focused token field');
  // Only the rules for classes the page uses: a component's styles come with every variant's (badge colours, sizes).
  const used = new Set([...markup.matchAll(/class="([^"]*)"/g)].flatMap((m) => m[1]!.split(' ')));
  for (const sheet of Object.values(renderer.stylesheets)) {
    if (!sheet) continue;
    const rules = sheet.cssRules().filter((rule) => {
      const owner = /\.([A-Za-z_][\w-]*)/.exec(rule)?.[1];
      return owner === undefined || used.has(owner);
    });
    sheet.cssRules = () => rules;
  }
  // Of the theme's variables (several hundred), those this page's rules and markup use: in the provider's own style
  // element (the light theme, drawn) and for a dark system setting, under which the same markup takes dark values.
  const rules = Object.values(renderer.stylesheets).flatMap((sheet) => sheet?.cssRules() ?? []);
  const provider = /(<style id="fui-FluentProvider[^"]*">)([^<]*)(<\/style>)/;
  const outside = markup.replace(provider, '') + rules.join('');
  const needed = new Set([...outside.matchAll(/var\(--([\w-]+)/g)].map((m) => m[1]!));
  const themed = markup.replace(provider, (_all, open: string, css: string, close: string) => {
    const kept = css.replace(/--([\w-]+):[^;]*;\s*/g, (decl, name: string) => (needed.has(name) ? decl : ''));
    return open + kept + close;
  });
  if (themed === markup) throw new Error("the prerendered sign-in page has no theme provider's style");
  const dark = Object.entries(webDarkTheme)
    .filter(([name]) => needed.has(name))
    .map(([name, value]) => `--${name}: ${value};`)
    .join(' ');
  const styles =
    renderToStaticMarkup(<>{renderToStyleElements(renderer)}</>).replaceAll('<style ', '<style data-prerendered="" ') +
    `<style data-prerendered="">@media (prefers-color-scheme: dark) { #root[data-prerendered] > .fui-FluentProvider { ${dark} } }</style>`;
  return { markup: themed, styles };
}
