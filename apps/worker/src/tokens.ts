export const CONFIG = Symbol('WorkerConfig');
export const PRISMA = Symbol('PrismaClient');
export const REDIS = Symbol('Redis');
export const STORES = Symbol('Stores');
export const STORAGE = Symbol('ObjectStorage');
export const GENERATION = Symbol('GenerationContext');
