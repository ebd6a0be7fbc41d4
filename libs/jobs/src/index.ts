export * from './queue';
export * from './payload-cipher';
export * from './sealed-uploads';
export * from './lifecycle';
export * from './generation';
export * from './invariants';
export * from './uploads';
