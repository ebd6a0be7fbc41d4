import type { Fetch } from './server';

/** The window's fetch, called as a function (a bare `fetch` reference loses its `this`: Illegal invocation). */
export const http: Fetch = (input, init) => fetch(input, init);
