export * from './queue';
export * from './payloads';
export * from './generation';
