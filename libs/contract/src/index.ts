/**
 * @ppfile/contract — the HTTP contract of API.md shared by the gateway, the worker and the CLI's
 * `--json`: the request error codes only HTTP knows and their messages, error statuses and the error
 * body, ids, the generate response. No framework, no I/O.
 */
export * from './codes';
export * from './errors';
export * from './field-errors';
export * from './files';
export * from './ids';
export * from './messages';
export * from './openapi';
export * from './responses';
