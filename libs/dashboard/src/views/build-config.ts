/**
 * What the Build page's script reads from its element (`data-config`, JSON): where everything is,
 * the session's CSRF token for its JSON requests, and the day the checks take as today.
 */
export interface BuildConfig {
  lang: 'en' | 'fr';
  /** YYYY-MM-DD: the day in Paris by the server's clock (the API's `today`). */
  today: string;
  csrf: string;
  workerUrl: string;
  listsUrl: string;
  templateUrl: string;
  mappingsUrl: string;
  generateUrl: string;
  filesUrl: string;
  /** GET: the session's CSRF token, no data (the page's keep-alive, and before Retry). */
  sessionUrl: string;
  signInUrl: string;
  usageUrl: string;
  /** Bodies of more rows go through the asynchronous path (`Prefer: respond-async`, then polling). */
  asyncAboveRows: number;
}
