import {
  createParamDecorator,
  Injectable,
  ValidationPipe,
  type ExecutionContext,
  type ArgumentMetadata,
  type PipeTransform,
  type ValidationPipeOptions,
} from '@nestjs/common';
import { Transform } from 'class-transformer';
import {
  getMetadataStorage,
  IsDefined,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  Min,
  ValidateBy,
  type ValidationError,
  type ValidationOptions,
} from 'class-validator';
import {
  ApiError,
  InvalidFieldsError,
  REQUEST_FIELD_PROBLEMS,
  type FieldProblemText,
  type RequestFieldProblem,
} from '@ppfile/contract';
import type { Lang } from '@ppfile/rules';

/*
 * Route parameters, query strings and form fields as DTO classes (class-validator), answered in the
 * API's one error body: 400 INVALID_REQUEST with details.fields, worded in the caller's language from
 * the contract's catalogue (REQUEST_FIELD_PROBLEMS). The JSON bodies of generate and validate are not
 * DTOs: libs/rules describes them once (request-shape.ts) for the gateway, the CLI and the OpenAPI
 * document.
 */

type Words = Readonly<Record<Lang, string>>;

/** What a failed constraint carries (class-validator's `context`): its words, or another refusal. */
interface FieldContext {
  words?: Words;
  /** The request is refused with this error instead (a route parameter that names no resource). */
  refusal?: () => ApiError;
}

/** A problem of the catalogue, with a suffix (the allowed values, the bounds) in both languages. */
export function words(problem: RequestFieldProblem, suffix: string | Words = ''): Words {
  const tail = (lang: Lang) => (typeof suffix === 'string' ? suffix : suffix[lang]);
  return {
    en: `${REQUEST_FIELD_PROBLEMS[problem].en}${tail('en')}`,
    fr: `${REQUEST_FIELD_PROBLEMS[problem].fr}${tail('fr')}`,
  };
}

/** A constraint's options that word its problem (see `words`). */
export const said = (w: Words): ValidationOptions => ({ context: { words: w } satisfies FieldContext });

function all(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => {
    for (const d of decorators) d(target, key);
  };
}

/** Present (a form's file, a required field). */
export const Required = (): PropertyDecorator => IsDefined(said(words('required')));

/** A text, when present. */
export const OptionalText = (): PropertyDecorator => all(IsOptional(), IsString(said(words('type_string'))));

/** One of `values`: "must be one of: a, b" as the format's own fields say it. */
export function OneOf(values: readonly string[]): PropertyDecorator {
  return all(
    IsString(said(words('type_string'))),
    IsIn(values, said(words('one_of', `: ${values.join(', ')}`))),
  );
}

/**
 * An integer from `min` to `max` given as text (a query string's), made a number as `Number()`
 * reads it (what the hand-written check took is still taken): "must be an integer from 1 to 500".
 */
export function IntegerFrom(min: number, max: number): PropertyDecorator {
  const range = words('range', {
    en: ` ${min} ${REQUEST_FIELD_PROBLEMS.range_to.en} ${max}`,
    fr: ` ${min} ${REQUEST_FIELD_PROBLEMS.range_to.fr} ${max}`,
  });
  return all(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? Number(value) : value)),
    IsInt(said(range)),
    Min(min, said(range)),
    Max(max, said(range)),
  );
}

/**
 * A route parameter that names a resource only when `valid`: otherwise the request is refused with
 * `refusal()` (404 NOT_FOUND for an id that cannot exist), as API.md §6 lists for that route, not
 * with INVALID_REQUEST.
 */
export function Names(valid: (value: unknown) => boolean, refusal: () => ApiError): PropertyDecorator {
  return ValidateBy(
    { name: 'names', validator: { validate: (v) => valid(v) } },
    // A message is needed: class-validator passes on the context of a constraint with one only.
    { message: '$property names no resource', context: { refusal } satisfies FieldContext },
  );
}

/** details.fields of the failed constraints, in the order of the errors (nested fields dotted). */
export function fieldProblems(errors: readonly ValidationError[], parent = ''): FieldProblemText[] {
  const out: FieldProblemText[] = [];
  for (const e of errors) {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const failed = Object.keys(e.constraints ?? {});
    // One problem a field: the first failed constraint's (the pipe stops at it anyway).
    if (failed.length) {
      const name = failed[0]!;
      const context = e.contexts?.[name] as FieldContext | undefined;
      const message =
        context?.words ?? (name === 'whitelistValidation' ? words('unknown') : words('invalid'));
      out.push({ field, message });
    }
    out.push(...fieldProblems(e.children ?? [], field));
  }
  return out;
}

/** The refusal a failed route parameter asks for, the first one's; else null. */
function refusalOf(errors: readonly ValidationError[]): ApiError | null {
  for (const e of errors)
    for (const c of Object.values(e.contexts ?? {}) as FieldContext[]) if (c.refusal) return c.refusal();
  return null;
}

/** The API's answer to a request whose DTOs failed: a route's own refusal, else INVALID_REQUEST. */
export function requestValidationError(errors: ValidationError[]): ApiError {
  return refusalOf(errors) ?? new InvalidFieldsError(fieldProblems(errors));
}

const COMMON: ValidationPipeOptions = {
  transform: true,
  whitelist: true,
  stopAtFirstError: true,
  validateCustomDecorators: true,
  exceptionFactory: requestValidationError,
};

const IGNORES_UNKNOWN = Symbol('ignoresUnknown');

/** A DTO that ignores the fields it does not declare (a query string's), where others refuse them. */
export function IgnoresUnknown(): ClassDecorator {
  return (target) => {
    (target as unknown as Record<symbol, boolean>)[IGNORES_UNKNOWN] = true;
  };
}

/**
 * A route's path parameters and query string as one DTO (`@IgnoresUnknown()`): validated at once, so
 * that a route parameter's refusal (an unknown version) comes before a query parameter's problem
 * whatever the order Nest runs its parameters' pipes in (all at once).
 */
export const PathAndQuery = createParamDecorator((_: unknown, ctx: ExecutionContext) => {
  const req = ctx.switchToHttp().getRequest<{ params: object; query: object }>();
  return { ...req.query, ...req.params };
});

const NOT_DTOS: ReadonlySet<unknown> = new Set([Object, String, Number, Boolean, Array]);

/**
 * The pipe of the routes that take DTOs (`@UsePipes(ApiValidationPipe)`: route parameters, query
 * strings, upload forms) — not a global one: the declaration routes, whose bodies libs/rules reads,
 * pay for no pipe (a global pipe and the request-id context together cost a fifth of their
 * throughput, bench:http). It validates only parameters typed with a DTO class. A body's or a form's
 * unknown field is refused (as the JSON body's are, API.md §2); a query string's unknown parameter is
 * ignored, as it always was (a cache-buster does no harm).
 */
@Injectable()
export class ApiValidationPipe implements PipeTransform {
  private readonly strict = new ValidationPipe({ ...COMMON, forbidNonWhitelisted: true });
  private readonly lenient = new ValidationPipe({ ...COMMON, forbidNonWhitelisted: false });

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const metatype = metadata.metatype as unknown as
      (Record<symbol, boolean> & (new () => object)) | undefined;
    // Not a DTO (a JSON body typed `unknown` is Object, a @Req() has none): nothing to check, on the
    // hot path of every declaration request.
    if (!metatype || NOT_DTOS.has(metatype)) return value;
    if (metadata.type === 'query' || metatype?.[IGNORES_UNKNOWN] === true)
      return this.lenient.transform(value, metadata) as unknown;
    const unknown = metatype && isObject(value) ? undeclaredFields(metatype, value) : [];
    let checked: unknown;
    try {
      checked = await this.strict.transform(value, metadata);
    } catch (e) {
      if (!(e instanceof InvalidFieldsError) || !unknown.length) throw e;
      const named = new Set(e.problems.map((p) => p.field));
      throw new InvalidFieldsError([...unknown.filter((p) => !named.has(p.field)), ...e.problems]);
    }
    if (unknown.length) throw new InvalidFieldsError(unknown);
    return checked;
  }
}

/** The fields each DTO class declares, read once from class-validator's metadata. */
const DECLARED = new WeakMap<new () => object, ReadonlySet<string>>();

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The fields of `value` its DTO does not declare. class-validator's whitelist looks each name up in
 * a plain object, so that `toString`, `constructor`, `hasOwnProperty` or `__proto__` pass it as if
 * declared: a form field of one of those names would go unnamed (the JSON body names them, API.md §2).
 */
function undeclaredFields(Dto: new () => object, value: object): FieldProblemText[] {
  let declared = DECLARED.get(Dto);
  if (!declared) {
    declared = new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(Dto, '', true, false)
        .map((m) => m.propertyName),
    );
    DECLARED.set(Dto, declared);
  }
  // No metadata: not a DTO (a JSON body typed `unknown` is Object), nothing to say.
  if (declared.size === 0) return [];
  return Object.keys(value)
    .filter((name) => !declared.has(name))
    .map((field) => ({ field, message: words('unknown') }));
}
