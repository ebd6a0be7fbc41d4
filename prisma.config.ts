import { defineConfig } from 'prisma/config';

// Prisma 7 reads the connection from here, not from schema.prisma. `env('DATABASE_URL')` would throw
// when the variable is unset, which would break `prisma generate` during `npm install`; the default is
// the one of API.md §13.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/ppfile' },
});
