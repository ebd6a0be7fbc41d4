import { plainToInstance, Transform } from 'class-transformer';
import { Allow, IsIn, ValidateBy, validateSync, type ValidationOptions } from 'class-validator';
import type { Lang } from '@ppfile/rules';
import type { Messages } from './i18n';
import { KEY_NAME_MAX } from './views/keys-pages';

/*
 * The dashboard's forms as DTO classes (class-validator), read with readPageForm: not through the
 * API's pipe (the gateway's common/validation.ts), since a problem is shown on the form's own page,
 * in its language, with the dashboard's texts. Fields the page adds (`_csrf`, `next`) are let through,
 * not refused. The rules of a new
 * password stay in passwords.ts: they need the account's e-mail address, and the password form
 * checks the current password before saying anything about the new one.
 */

/** What the page says about a field (the dashboard's context of a constraint). */
interface PageWords {
  say?: (t: Messages) => string;
  /** The API's words for the same problem (libs/contract REQUEST_FIELD_PROBLEMS). */
  words?: Readonly<Record<Lang, string>>;
}

const says = (say: (t: Messages) => string): ValidationOptions => ({
  context: { say } satisfies PageWords,
});

/** A field's text: the string typed, else `fallback` (absent, or sent twice: a list). */
const Text = (fallback = ''): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value : fallback));

/** At most `max` characters (code points, as the name column and the page count them). */
function MaxCharacters(max: number, options: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    { name: 'maxCharacters', validator: { validate: (v) => typeof v === 'string' && [...v].length <= max } },
    { message: `$property has more than ${max} characters`, ...options },
  );
}

/** A key's name as typed: trimmed, control characters removed (it is shown in lists and dialogs). */
export function cleanKeyName(value: unknown): string {
  return typeof value === 'string' ? value.replace(/[\p{Cc}\u2028\u2029]/gu, ' ').trim() : '';
}

/** POST /dashboard/keys: a mode, then an optional name. */
export class KeyForm {
  @IsIn(['test', 'live'], { message: '$property must be test or live', ...says((t) => t.keys.modeRequired) })
  mode!: 'test' | 'live';

  @Transform(({ value }: { value: unknown }) => cleanKeyName(value))
  @MaxCharacters(KEY_NAME_MAX, says((t) => t.keys.nameTooLong(KEY_NAME_MAX)))
  name = '';
}

/** POST /dashboard/sign-in: what was typed, as text (a wrong one is answered as a wrong password). */
export class SignInForm {
  @Text()
  @Allow()
  email = '';

  @Text()
  @Allow()
  password = '';

  /** Where to go after it (session-cookies.ts safeNext decides). */
  @Allow()
  next?: unknown;
}

/** POST /dashboard/invite/{token}: the new password twice (passwords.ts judges it). */
export class InvitationForm {
  @Text()
  @Allow()
  password = '';

  @Text()
  @Allow()
  confirmation = '';
}

/** POST /dashboard/account/password: the current password, the new one twice. */
export class PasswordForm extends InvitationForm {
  @Text()
  @Allow()
  current = '';
}

/**
 * A form read into its DTO, and what its page says about its problems (none: an empty list): the
 * first failed constraint of each field, with its context's words.
 */
export function readPageForm<T extends object>(
  Form: new () => T,
  body: unknown,
  t: Messages,
  lang: Lang,
): { form: T; problems: string[] } {
  const plain = typeof body === 'object' && body !== null ? { ...body } : {};
  const form = plainToInstance(Form, plain);
  const errors = validateSync(form, { whitelist: true, stopAtFirstError: true });
  return {
    form,
    problems: errors.map((e) => {
      const name = Object.keys(e.constraints ?? {})[0];
      const words = name ? (e.contexts?.[name] as PageWords | undefined) : undefined;
      if (words?.say) return words.say(t);
      return `${e.property}: ${words?.words?.[lang] ?? e.property}`;
    }),
  };
}
