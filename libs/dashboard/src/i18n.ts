import { inLanguage, type InLanguage, type Lang } from '@ppfile/rules';
import { LAYOUT_TEXTS } from './views/layout.texts';
import { AUTH_TEXTS } from './views/auth-pages.texts';
import { USAGE_TEXTS } from './views/usage-page.texts';
import { KEYS_TEXTS } from './views/keys-pages.texts';
import { FILES_TEXTS } from './views/files-pages.texts';
import { TRY_TEXTS } from './views/try-page.texts';
import { BUILD_TEXTS } from './views/build-page.texts';
import { ACCOUNT_TEXTS } from './views/account-page.texts';
import { ERROR_TEXTS } from './views/error-page.texts';

/**
 * Every word of the dashboard: the catalogues of its pages, each beside its view (views/*.texts.ts),
 * and the layout's with the words every page shares (views/layout.texts.ts). Each entry holds its
 * English and French side by side (libs/rules `Localized`, the one shape of ppfile's catalogues): a
 * text missing in one language fails `tsc`. Validation messages are not here: they come from
 * libs/rules' catalogue (the same words as the API's), in the page's language.
 */
const TEXTS = {
  ...LAYOUT_TEXTS,
  ...AUTH_TEXTS,
  ...USAGE_TEXTS,
  ...KEYS_TEXTS,
  ...FILES_TEXTS,
  ...TRY_TEXTS,
  ...BUILD_TEXTS,
  ...ACCOUNT_TEXTS,
  ...ERROR_TEXTS,
};

/** The dashboard's words in one language, as a page renders with them. */
export type Messages = InLanguage<typeof TEXTS>;

export const MESSAGES: Readonly<Record<Lang, Messages>> = {
  en: inLanguage(TEXTS, 'en'),
  fr: inLanguage(TEXTS, 'fr'),
};

const LOCALES: Record<Lang, string> = { en: 'en-GB', fr: 'fr-FR' };
/** People of French organizations read Paris time; the usage month itself is UTC (SERVICE.md §8). */
export const DISPLAY_TIME_ZONE = 'Europe/Paris';

/** Number, date and duration formatting in one language. */
export class Formats {
  private readonly numbers: Intl.NumberFormat;
  private readonly percents: Intl.NumberFormat;
  private readonly dateTimes: Intl.DateTimeFormat;
  private readonly dates: Intl.DateTimeFormat;
  private readonly utcDates: Intl.DateTimeFormat;
  private readonly months: Intl.DateTimeFormat;
  private readonly shortDateTimes: Intl.DateTimeFormat;
  private readonly years: Intl.DateTimeFormat;
  private readonly longMonths: Intl.DateTimeFormat;

  constructor(readonly lang: Lang) {
    const locale = LOCALES[lang];
    this.numbers = new Intl.NumberFormat(locale);
    this.percents = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
    this.dateTimes = new Intl.DateTimeFormat(locale, {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: DISPLAY_TIME_ZONE,
    });
    this.dates = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: DISPLAY_TIME_ZONE });
    this.utcDates = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' });
    this.months = new Intl.DateTimeFormat(locale, { month: 'short', timeZone: 'UTC' });
    this.shortDateTimes = new Intl.DateTimeFormat(locale, {
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: DISPLAY_TIME_ZONE,
    });
    this.years = new Intl.DateTimeFormat('en-GB', { year: 'numeric', timeZone: DISPLAY_TIME_ZONE });
    this.longMonths = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  }

  number(n: number): string {
    return this.numbers.format(n);
  }

  percent(ratio: number): string {
    return this.percents.format(ratio);
  }

  dateTime(d: Date): string {
    return this.dateTimes.format(d);
  }

  /** "23 Nov, 16:01" within the current year (Paris time), the full date and time otherwise. */
  shortDateTime(d: Date, now: Date): string {
    return this.years.format(d) === this.years.format(now)
      ? this.shortDateTimes.format(d)
      : this.dateTimes.format(d);
  }

  date(d: Date): string {
    return this.dates.format(d);
  }

  /** A calendar day in UTC (the reset of the usage month); French writes the first of a month "1er". */
  utcDate(d: Date): string {
    const text = this.utcDates.format(d);
    return this.lang === 'fr' && d.getUTCDate() === 1 ? text.replace(/^1 /, '1er ') : text;
  }

  /** "Nov" / "nov." of a YYYY-MM month. */
  shortMonth(month: string): string {
    return this.months.format(new Date(`${month}-01T00:00:00Z`));
  }

  /** "November 2026" / "novembre 2026". */
  longMonth(month: string): string {
    return this.longMonths.format(new Date(`${month}-01T00:00:00Z`));
  }

  /** A duration as "2 d 3 h", "23 h 12 min", "5 min" (the same words in both languages). */
  duration(ms: number): string {
    const minutes = Math.max(0, Math.floor(ms / 60_000));
    const days = Math.floor(minutes / 1440);
    const hours = Math.floor((minutes % 1440) / 60);
    const mins = minutes % 60;
    if (days > 0) return `${days} ${this.lang === 'fr' ? 'j' : 'd'} ${hours} h`;
    if (hours > 0) return `${hours} h ${String(mins).padStart(2, '0')} min`;
    return `${Math.max(1, mins)} min`;
  }

  /** "3 min ago" / "il y a 3 min"; "just now" under a minute. */
  ago(then: Date, now: Date): string {
    const ms = now.getTime() - then.getTime();
    if (ms < 60_000) return MESSAGES[this.lang].time.justNow;
    return MESSAGES[this.lang].time.ago(this.duration(ms));
  }
}

/** The dashboard's language: the switch's cookie when set, else the browser's Accept-Language. */
export function dashboardLang(
  cookie: string | undefined,
  acceptLanguage: string | undefined,
  pick: (v: string | undefined) => Lang,
): Lang {
  if (cookie === 'en' || cookie === 'fr') return cookie;
  return pick(acceptLanguage);
}
