/** Injection tokens of the gateway's process-wide resources (one of each per process). */
export const CONFIG = Symbol('GatewayConfig');
export const PRISMA = Symbol('PrismaClient');
export const REDIS = Symbol('Redis');
export const STORES = Symbol('Stores');
export const STORAGE = Symbol('ObjectStorage');
