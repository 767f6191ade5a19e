// The sign-in page the service sends as HTML to a browser without a session (prerender.tsx draws it at build time):
// main.tsx draws the live page over it, and what was typed into its token field carries over.

/** The root's marker while it holds the prerendered page. */
export const PRERENDERED = 'sign-in';

let typed = '';

/** Notes what was typed into the prerendered form; main.tsx calls it in the task that draws over that form. */
export function keepTypedToken(root: HTMLElement): void {
  typed = root.querySelector<HTMLInputElement>('input[name="token"]')?.value ?? '';
}

/** The token typed into the prerendered form before the page took over ('' when none). */
export const typedToken = () => typed;

/** Forgets it once the live form holds it (a later sign-in page, after a sign-out, starts empty). */
export function forgetTypedToken(): void {
  typed = '';
}
