import { lazyPage } from './components/lazy';

// The shell and every page behind the session (SignedIn.tsx), kept out of the first script. It loads at once when the
// browser had a session last time (main.tsx), else while the sign-in page shows (SignInPage.tsx starts it).
export const SignedIn = lazyPage(() => import('./SignedIn'));
