/**
 * The weekly schedule as the thermostat stores it, and what the card does with it: no DOM here,
 * so every rule is unit tested (test/schedule.test.ts).
 *
 * Stored form (README, `thermostat_cloud.get_schedule`): °C, times in seconds after midnight,
 * days "0" = Monday to "6" = Sunday as firmware counts them, each day an object of entries keyed
 * "0", "1", ... `RANGE` entries hold `temp-min` and `temp-max`. `continuation` entries are the
 * thermostat's own: the previous day's last setpoint carried over midnight; the card shows them
 * and sends them back as they were (the thermostat rewrites them), never edits them.
 */

export type Mode = "HEAT" | "COOL" | "RANGE";
export const MODES: readonly Mode[] = ["HEAT", "COOL", "RANGE"];

export interface StoredEntry {
  time: number;
  type: Mode;
  entry_type: "setpoint" | "continuation";
  temp?: number;
  "temp-min"?: number;
  "temp-max"?: number;
  [other: string]: unknown;
}

export interface StoredSchedule {
  ver: number;
  name?: string;
  schedule_mode: Mode;
  days: Record<string, Record<string, StoredEntry>>;
  [other: string]: unknown;
}

/** One entry as the card edits it; temperatures stay in °C (as stored) until shown. */
export interface Entry {
  time: number;
  type: Mode;
  /** HEAT and COOL. */
  temp?: number;
  /** RANGE. */
  low?: number;
  high?: number;
  continuation: boolean;
  /** Fields of the stored entry the card does not know, sent back as they were. */
  extra: Record<string, unknown>;
}

/** A schedule being edited: days indexed as firmware counts them (0 = Monday). */
export interface Week {
  ver: number;
  name?: string;
  mode: Mode;
  days: Entry[][];
  extra: Record<string, unknown>;
}

export const SECONDS_PER_DAY = 86400;
export const DAYS = 7;

/** The thermostat's setpoint limits (README: 4.5 to 32 °C; 40 to 90 °F in a Fahrenheit home). */
export const LIMITS = {
  "°C": { min: 4.5, max: 32, step: 0.5 },
  "°F": { min: 40, max: 90, step: 1 },
} as const;
export type Unit = keyof typeof LIMITS;

export function unitOf(haUnit: string | undefined): Unit {
  return haUnit === "°F" ? "°F" : "°C";
}

/** °C as stored, shown in the user's unit: to 0.1 °C, whole °F (the thermostat's 0.5 °C steps). */
export function toUnit(celsius: number, unit: Unit): number {
  if (unit === "°C") return Math.round(celsius * 10) / 10;
  return Math.round((celsius * 9) / 5 + 32);
}

/** A temperature typed in the user's unit, as the thermostat stores it: °C in 0.5 steps. */
export function toCelsius(value: number, unit: Unit): number {
  const celsius = unit === "°C" ? value : ((value - 32) * 5) / 9;
  return Math.round(celsius * 2) / 2;
}

// -- reading and writing the stored form ------------------------------------------------------

function numberOr(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

function modeOf(value: unknown, fallback: Mode): Mode {
  return MODES.includes(value as Mode) ? (value as Mode) : fallback;
}

export function parseSchedule(stored: StoredSchedule): Week {
  const { ver, name, schedule_mode, days, ...extra } = stored;
  const mode = modeOf(schedule_mode, "HEAT");
  const week: Entry[][] = [];
  for (let day = 0; day < DAYS; day++) {
    const entries = Object.values(days?.[String(day)] ?? {}).map((stored): Entry => {
      const { time, type, entry_type, temp, "temp-min": low, "temp-max": high, ...rest } = stored;
      const entryType = modeOf(type, mode);
      const entry: Entry = {
        time: numberOr(time, 0),
        type: entryType,
        continuation: entry_type === "continuation",
        extra: rest,
      };
      if (entryType === "RANGE") {
        entry.low = numberOr(low, NaN);
        entry.high = numberOr(high, NaN);
      } else {
        entry.temp = numberOr(temp, NaN);
      }
      return entry;
    });
    week.push(sortEntries(entries));
  }
  return { ver: numberOr(ver, 1), name, mode, days: week, extra };
}

export function sortEntries(entries: Entry[]): Entry[] {
  // Continuations first at equal times: a setpoint at that time replaces them (serializeWeek).
  return [...entries].sort(
    (a, b) => a.time - b.time || Number(b.continuation) - Number(a.continuation),
  );
}

/** The week in the stored form, ready for `set_schedule`. */
export function serializeWeek(week: Week): StoredSchedule {
  const days: StoredSchedule["days"] = {};
  week.days.forEach((entries, day) => {
    const setpointTimes = new Set(entries.filter((e) => !e.continuation).map((e) => e.time));
    const kept = sortEntries(entries).filter((e) => !e.continuation || !setpointTimes.has(e.time));
    const stored: Record<string, StoredEntry> = {};
    kept.forEach((entry, index) => {
      const out: StoredEntry = {
        ...entry.extra,
        time: entry.time,
        type: entry.type,
        entry_type: entry.continuation ? "continuation" : "setpoint",
      };
      if (entry.type === "RANGE") {
        out["temp-min"] = entry.low;
        out["temp-max"] = entry.high;
      } else {
        out.temp = entry.temp;
      }
      stored[String(index)] = out;
    });
    days[String(day)] = stored;
  });
  const schedule: StoredSchedule = { ...week.extra, ver: week.ver, schedule_mode: week.mode, days };
  if (week.name !== undefined) schedule.name = week.name;
  return schedule;
}

/** A first schedule for a thermostat that has none: 07:00 and 22:00 every day. */
export function newWeek(mode: Mode): Week {
  const day = (): Entry[] => [
    makeEntry(mode, 7 * 3600, mode === "COOL" ? 24 : 20),
    makeEntry(mode, 22 * 3600, mode === "COOL" ? 27 : 17),
  ];
  return { ver: 2, mode, days: Array.from({ length: DAYS }, day), extra: {} };
}

/** A setpoint of the schedule's mode around `celsius` (a range keeps 3 °C between its ends). */
export function makeEntry(mode: Mode, time: number, celsius: number): Entry {
  if (mode === "RANGE") {
    const low = Math.min(celsius, LIMITS["°C"].max - 3);
    return { time, type: mode, low, high: low + 3, continuation: false, extra: {} };
  }
  return { time, type: mode, temp: celsius, continuation: false, extra: {} };
}

/** The week with every entry turned into the new mode's kind (heat and cool keep their temperature). */
export function changeMode(week: Week, mode: Mode): Week {
  const days = week.days.map((entries) =>
    entries.map((entry): Entry => {
      if (entry.type === mode) return entry;
      const celsius =
        entry.type === "RANGE" ? (mode === "COOL" ? entry.high! : entry.low!) : entry.temp!;
      let converted = makeEntry(mode, entry.time, celsius);
      if (mode === "RANGE" && entry.type === "COOL") {
        // A cooling setpoint becomes the range's top.
        const high = Math.max(celsius, LIMITS["°C"].min + 3);
        converted = { ...converted, low: high - 3, high };
      }
      return { ...converted, continuation: entry.continuation, extra: entry.extra };
    }),
  );
  return { ...week, mode, days };
}

/** Copy a day's setpoints onto other days (their own setpoints are replaced). */
export function copyDay(week: Week, from: number, to: Iterable<number>): Week {
  const days = week.days.map((entries) => entries);
  const source = week.days[from].filter((e) => !e.continuation);
  for (const day of to) {
    if (day === from) continue;
    const carried = week.days[day].filter((e) => e.continuation);
    days[day] = sortEntries([...carried, ...source.map((e) => ({ ...e, extra: { ...e.extra } }))]);
  }
  return { ...week, days };
}

// -- checks before anything is sent ------------------------------------------------------------

export type Problem =
  | { key: "empty_day"; day: number }
  | { key: "same_time"; day: number; time: number }
  | { key: "out_of_range"; day: number; time: number; min: number; max: number }
  | { key: "range_order"; day: number; time: number }
  | { key: "bad_time"; day: number; time: number };

/**
 * What is wrong with the week, in days and times the user can find; empty when it can be sent.
 * Temperatures are checked in the user's unit, as shown, and in °C as they will be stored.
 */
export function validateWeek(week: Week, unit: Unit): Problem[] {
  const problems: Problem[] = [];
  const limits = LIMITS[unit];
  const inRange = (celsius: number | undefined): boolean => {
    if (celsius === undefined || !Number.isFinite(celsius)) return false;
    const shown = toUnit(celsius, unit);
    return (
      shown >= limits.min &&
      shown <= limits.max &&
      celsius >= LIMITS["°C"].min &&
      celsius <= LIMITS["°C"].max
    );
  };
  week.days.forEach((entries, day) => {
    if (entries.length === 0) {
      problems.push({ key: "empty_day", day });
      return;
    }
    const seen = new Set<number>();
    for (const entry of entries.filter((e) => !e.continuation)) {
      const { time } = entry;
      if (!Number.isInteger(time) || time < 0 || time >= SECONDS_PER_DAY) {
        problems.push({ key: "bad_time", day, time });
        continue;
      }
      if (seen.has(time)) problems.push({ key: "same_time", day, time });
      seen.add(time);
      const temps = entry.type === "RANGE" ? [entry.low, entry.high] : [entry.temp];
      if (!temps.every(inRange)) {
        problems.push({ key: "out_of_range", day, time, min: limits.min, max: limits.max });
      } else if (entry.type === "RANGE" && entry.low! >= entry.high!) {
        problems.push({ key: "range_order", day, time });
      }
    }
  });
  return problems;
}

// -- how the week is shown ----------------------------------------------------------------------

/**
 * The days in the order the user's week runs, as firmware indexes (0 = Monday).
 * `firstWeekday`: 0 = Sunday ... 6 = Saturday (JavaScript's Date numbering).
 */
export function dayOrder(firstWeekday: number): number[] {
  const firstFirmwareDay = (firstWeekday + 6) % 7;
  return Array.from({ length: DAYS }, (_, i) => (firstFirmwareDay + i) % DAYS);
}

const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];

/**
 * The first day of the user's week (Date numbering): Home Assistant's profile setting
 * (`hass.locale.first_weekday`), or, set to "language", what Intl knows of the language.
 */
export function firstWeekday(setting: string | undefined, language: string): number {
  const named = setting ? WEEKDAYS.indexOf(setting) : -1;
  if (named >= 0) return named;
  try {
    const locale = new Intl.Locale(language) as Intl.Locale & {
      weekInfo?: { firstDay: number };
      getWeekInfo?: () => { firstDay: number };
    };
    const info = locale.getWeekInfo?.() ?? locale.weekInfo;
    if (info) return info.firstDay % 7; // Intl: 1 = Monday ... 7 = Sunday
  } catch {
    // An unknown language: Monday, as the thermostat counts.
  }
  return 1;
}

/** Weekday names for firmware days 0 (Monday) to 6, in the user's language. */
export function weekdayNames(language: string, style: "long" | "short"): string[] {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat(language, { weekday: style, timeZone: "UTC" });
  } catch {
    format = new Intl.DateTimeFormat("en", { weekday: style, timeZone: "UTC" });
  }
  // 2024-01-01 was a Monday.
  return Array.from({ length: DAYS }, (_, day) => format.format(Date.UTC(2024, 0, 1 + day)));
}

/** "HH:MM" of seconds after midnight (the value of an `<input type="time">`). */
export function timeValue(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const pad = (n: number): string => String(n).padStart(2, "0");
  return `${pad(Math.floor(minutes / 60) % 24)}:${pad(minutes % 60)}`;
}

/** Seconds after midnight of an `<input type="time">` value; NaN when there is none. */
export function parseTimeValue(value: string): number {
  const match = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!match) return NaN;
  const [hours, minutes, seconds] = [match[1], match[2], match[3] ?? "0"].map(Number);
  if (hours > 23 || minutes > 59 || seconds > 59) return NaN;
  return hours * 3600 + minutes * 60 + seconds;
}

/** One stretch of a day's line: from `start` to `end` seconds, at the entry in force. */
export interface Segment {
  start: number;
  end: number;
  entry: Entry;
  carried: boolean;
}

/**
 * The day as the thermostat runs it: from midnight, the entry in force, up to midnight. Before
 * the day's first entry the last entry of an earlier day is in force (carried over).
 */
export function daySegments(week: Week, day: number): Segment[] {
  const entries = week.days[day].filter((e) => e.time >= 0 && e.time < SECONDS_PER_DAY);
  const segments: Segment[] = [];
  if (entries.length === 0 || entries[0].time > 0) {
    const carried = lastBefore(week, day);
    const end = entries.length ? entries[0].time : SECONDS_PER_DAY;
    if (carried) segments.push({ start: 0, end, entry: carried, carried: true });
  }
  entries.forEach((entry, i) => {
    const end = i + 1 < entries.length ? entries[i + 1].time : SECONDS_PER_DAY;
    if (end > entry.time) segments.push({ start: entry.time, end, entry, carried: false });
  });
  return segments;
}

function lastBefore(week: Week, day: number): Entry | undefined {
  for (let back = 1; back <= DAYS; back++) {
    const entries = week.days[(day - back + DAYS) % DAYS];
    if (entries.length) return entries[entries.length - 1];
  }
  return undefined;
}

/** JSON with object keys sorted: two schedules that differ only in key order compare equal. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}
