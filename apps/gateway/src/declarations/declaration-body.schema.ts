import { declarationBodyJsonSchema } from '@ppfile/rules';

/**
 * OpenAPI description of the declaration body (SERVICE.md §2.1, API.md §2–§3), derived from the
 * rules library's one description of it (libs/rules/src/request-shape.ts) and the spec tables: the
 * fields the parser knows, no other, with the columns' lengths and values.
 */
export const DECLARATION_BODY_SCHEMA = declarationBodyJsonSchema();
