/** Injected into every bundle (build.mjs): the global `Buffer` the libraries use is the shim's. */
export { Buffer } from './node-buffer';
