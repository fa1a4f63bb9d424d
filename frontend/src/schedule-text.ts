import { CardText } from "./card-base";
import type { StringKey } from "./localize";
import { timeValue, toUnit, unitOf, type Entry, type Mode, type Unit } from "./schedule";
import type { HomeAssistant } from "./types";

const MODE_LABELS: Record<Mode, StringKey> = { HEAT: "heat", COOL: "cool", RANGE: "range" };

/** The schedule card's words, temperatures and times, in the user's language and unit. */
export class ScheduleText extends CardText {
  readonly unit: Unit;

  constructor(hass: HomeAssistant | undefined) {
    super(hass);
    this.unit = unitOf(hass?.config.unit_system.temperature);
  }

  /** A mode's name, as the mode menu and a setpoint's field say it. */
  mode(mode: Mode): string {
    return this.t(MODE_LABELS[mode]);
  }

  temperature(celsius: number | undefined): string {
    if (celsius === undefined || !Number.isFinite(celsius)) return "–";
    const value = toUnit(celsius, this.unit);
    return `${value.toLocaleString(this.language)} ${this.unit}`;
  }

  entryLabel(entry: Entry): string {
    return entry.type === "RANGE"
      ? `${this.temperature(entry.low)} – ${this.temperature(entry.high)}`
      : this.temperature(entry.temp);
  }

  /** The setpoint without its unit, for the day's line where room is short. */
  entryNumbers(entry: Entry): string {
    const number = (celsius: number | undefined): string =>
      celsius === undefined || !Number.isFinite(celsius)
        ? "–"
        : toUnit(celsius, this.unit).toLocaleString(this.language);
    return entry.type === "RANGE" ? `${number(entry.low)}–${number(entry.high)}` : number(entry.temp);
  }

  hour(hour: number): string {
    try {
      return new Date(Date.UTC(2024, 0, 1, hour)).toLocaleTimeString(this.language, {
        hour: "numeric",
        timeZone: "UTC",
      });
    } catch {
      return String(hour);
    }
  }

  time(seconds: number): string {
    const date = new Date(Date.UTC(2024, 0, 1, 0, 0, seconds));
    try {
      return date.toLocaleTimeString(this.language, {
        hour: "numeric",
        minute: "2-digit",
        timeZone: "UTC",
      });
    } catch {
      return timeValue(seconds);
    }
  }

  /** A moment (ISO 8601) as the home's clock shows it, in the user's 12 or 24 hour format. */
  clock(iso: string): string {
    const format = this.hass?.locale?.time_format;
    try {
      return new Date(iso).toLocaleTimeString(this.language, {
        hour: "numeric",
        minute: "2-digit",
        timeZone: this.hass?.config.time_zone,
        hour12: format === "12" ? true : format === "24" ? false : undefined,
      });
    } catch {
      return iso;
    }
  }
}
