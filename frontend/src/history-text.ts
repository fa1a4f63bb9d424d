import { CardText } from "./card-base";
import type { StringKey } from "./localize";
import en from "./translations/en.json";

/** The history card's words, hours, figures and dates, in the user's language. */
export class HistoryText extends CardText {
  hours(hours: number): string {
    return this.t("history_hours", {
      hours: hours.toLocaleString(this.language, { maximumFractionDigits: 2 }),
    });
  }

  number(value: number): string {
    return value.toLocaleString(this.language, { maximumFractionDigits: 1 });
  }

  /** A day of the report (`YYYY-MM-DD`, a calendar day: no time zone moves it). */
  date(iso: string, options: Intl.DateTimeFormatOptions): string {
    const [year, month, day] = iso.split("-").map(Number);
    try {
      return new Date(Date.UTC(year, month - 1, day)).toLocaleDateString(this.language, {
        ...options,
        timeZone: "UTC",
      });
    } catch {
      return iso;
    }
  }

  equipment(name: string): string {
    return this.named(`equipment_${name}`, name);
  }

  source(source: string): string {
    return this.named(`source_${source}`, source);
  }

  /** A name from the strings; a name a newer integration sends and the card lacks, as sent. */
  private named(key: string, fallback: string): string {
    return key in en ? this.t(key as StringKey) : fallback;
  }
}
