import type { Lang } from './catalogue';
import { ValueNormalizer, type NormalizationRule, type NormalizationSink } from './json-rows';
import { parseDeclarationRequest } from './request';
import type { ColumnSpec } from './format/types';

/** One value the §5 normalizations changed, with its value before and after. */
export interface BodyValueChange {
  /** The declaration's index, 1-based. */
  row: number;
  /** The value's request path, as `normalizations[].field` names it (`declarations[0].holders[1].nir`). */
  field: string;
  column: string;
  /** The first rule that changed the value; `rules` has every one, in the order they applied. */
  rule: NormalizationRule;
  rules: NormalizationRule[];
  from: string;
  to: string;
}

export interface NormalizedBody<B> {
  body: B;
  changes: BodyValueChange[];
}

type Json = Record<string, unknown>;

/** Collects the rules applied to the one value being normalized. */
class RuleSink implements NormalizationSink {
  rules: NormalizationRule[] = [];
  add(_field: unknown, _column: string, rule: NormalizationRule): void {
    this.rules.push(rule);
  }
}

/**
 * The normalizations of API.md §5 (SERVICE.md §2.6) applied to a declaration body's values: the body
 * with each normalizable value as the file would hold it, and each change with its value before and
 * after — what a person is shown before accepting "the safe fixes". The values are normalized by
 * ValueNormalizer, the one place these rules are written; a value it cannot normalize is left as it
 * is (the checker judges it). Pure; the input is not modified. The changes hold the values, so that
 * a person sees them: they stay with that person (the Build page), never in a log or an answer of
 * the API. Throws RequestError (INVALID_REQUEST, UNSUPPORTED_SPEC_VERSION) for a body whose
 * structure the API would refuse.
 */
export function normalizeBody<B extends object>(raw: B, lang: Lang): NormalizedBody<B> {
  const request = parseDeclarationRequest(raw, lang);
  const table = request.spec.tables[request.type];
  const sink = new RuleSink();
  const values = new ValueNormalizer(sink);
  const changes: BodyValueChange[] = [];
  const body = structuredClone(raw) as B & { declarations: Json[] };
  const declColumns = table.columns.filter((c) => c.level === 'declaration');
  const holderColumns = table.columns.filter((c) => c.level === 'holder');

  const visit = (owner: Json, column: ColumnSpec, row: number, base: string): void => {
    const keys = column.json.path.split('.');
    const parent = keys.length === 1 ? owner : owner[keys[0]!];
    if (!isObject(parent)) return;
    const key = keys[keys.length - 1]!;
    const value = parent[key];
    const path = `${base}.${column.json.path}`;
    if (Array.isArray(value)) {
      if (column.json.kind !== 'codes') return;
      value.forEach((element, k) => {
        const to = normalizeOne(values, sink, column, element);
        if (to !== null) {
          value[k] = to.value;
          changes.push(change(row, `${path}[${k}]`, column, sink.rules, element as string, to.value));
        }
      });
      return;
    }
    const to = normalizeOne(values, sink, column, value);
    if (to !== null) {
      parent[key] = to.value;
      changes.push(change(row, path, column, sink.rules, value as string, to.value));
    }
  };

  body.declarations.forEach((declaration, d) => {
    const base = `declarations[${d}]`;
    for (const column of declColumns) visit(declaration, column, d + 1, base);
    const holders = Array.isArray(declaration.holders) ? (declaration.holders as unknown[]) : [];
    holders.forEach((holder, h) => {
      if (!isObject(holder)) return;
      for (const column of holderColumns) visit(holder, column, d + 1, `${base}.holders[${h}]`);
    });
  });
  return { body, changes };
}

/** The normalized value when a rule changed it, else null; `sink.rules` says which rules. */
function normalizeOne(
  values: ValueNormalizer,
  sink: RuleSink,
  column: ColumnSpec,
  value: unknown,
): { value: string } | null {
  if (typeof value !== 'string') return null;
  sink.rules = [];
  const field = () => '';
  let out: string;
  switch (column.json.kind) {
    case 'string':
      out = values.text(value, field, column.name);
      break;
    case 'enum':
      out = values.enumValue(value, field, column);
      break;
    case 'date':
      out = values.date(value, field, column.name);
      break;
    case 'nir':
      out = values.nir(value, field, column.name);
      break;
    case 'siret':
      out = values.siret(value, field, column.name);
      break;
    case 'codes':
      out = values.code(value, field, column.name, column.list!);
      break;
    default:
      return null;
  }
  return sink.rules.length && out !== value ? { value: out } : null;
}

function change(
  row: number,
  field: string,
  column: ColumnSpec,
  rules: NormalizationRule[],
  from: string,
  to: string,
): BodyValueChange {
  return { row, field, column: column.name, rule: rules[0]!, rules: [...rules], from, to };
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
