export * from './object-storage';
export * from './local-s3';
