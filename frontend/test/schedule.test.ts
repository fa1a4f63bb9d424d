import { describe, expect, it } from "vitest";

import { localize } from "../src/localize";
import {
  canonical,
  changeMode,
  copyDay,
  dayOrder,
  daySegments,
  firstWeekday,
  parseSchedule,
  parseTimeValue,
  serializeWeek,
  timeValue,
  toCelsius,
  toUnit,
  validateWeek,
  weekdayNames,
  type StoredSchedule,
} from "../src/schedule";

const setpoint = (time: number, temp: number) => ({
  time,
  temp,
  type: "HEAT" as const,
  entry_type: "setpoint" as const,
});

/** A schedule as the thermostat reports it: Monday and Tuesday set, the rest carried over. */
const STORED: StoredSchedule = {
  ver: 2,
  name: "Week",
  schedule_mode: "HEAT",
  days: {
    "0": { "0": setpoint(25200, 21), "1": setpoint(79200, 17.5) },
    "1": { "1": setpoint(79200, 16), "0": setpoint(21600, 20.5) },
    "2": { "0": { ...setpoint(0, 16), entry_type: "continuation" }, "1": setpoint(25200, 21) },
    "3": { "0": setpoint(25200, 21) },
    "4": { "0": setpoint(25200, 21) },
    "5": { "0": setpoint(28800, 21) },
    "6": { "0": setpoint(28800, 21) },
  },
};

describe("reading and writing the stored schedule", () => {
  it("writes back what it read, entries in time order with fresh keys", () => {
    const written = serializeWeek(parseSchedule(STORED));
    expect(written.days["1"]).toEqual({ "0": setpoint(21600, 20.5), "1": setpoint(79200, 16) });
    expect(canonical(written)).toBe(
      canonical({ ...STORED, days: { ...STORED.days, "1": written.days["1"] } }),
    );
  });

  it("keeps fields it does not know", () => {
    const stored = {
      ...STORED,
      future: 1,
      days: { ...STORED.days, "3": { "0": { ...setpoint(25200, 21), touched_by: 2 } } },
    };
    const written = serializeWeek(parseSchedule(stored));
    expect(written.future).toBe(1);
    expect(written.days["3"]["0"].touched_by).toBe(2);
  });

  it("drops a carried-over entry where a setpoint now starts the day", () => {
    const week = parseSchedule(STORED);
    const copied = copyDay(week, 0, [2]);
    copied.days[2] = copied.days[2].map((e) => (e.time === 25200 ? { ...e, time: 0 } : e));
    const written = serializeWeek(copied);
    expect(Object.values(written.days["2"]).map((e) => [e.time, e.entry_type])).toEqual([
      [0, "setpoint"],
      [79200, "setpoint"],
    ]);
  });

  it("reads range entries' temp-min and temp-max", () => {
    const stored: StoredSchedule = {
      ver: 1,
      schedule_mode: "RANGE",
      days: {
        "0": {
          "0": { time: 0, type: "RANGE", entry_type: "setpoint", "temp-min": 19, "temp-max": 24 },
        },
      },
    };
    const week = parseSchedule(stored);
    expect(week.days[0][0]).toMatchObject({ low: 19, high: 24 });
    expect(serializeWeek(week).days["0"]["0"]).toEqual(stored.days["0"]["0"]);
  });
});

describe("checks before anything is sent", () => {
  const week = () => parseSchedule(STORED);

  it("accepts the thermostat's own schedule", () => {
    expect(validateWeek(week(), "°C")).toEqual([]);
    expect(validateWeek(week(), "°F")).toEqual([]);
  });

  it("refuses an empty day", () => {
    const changed = week();
    changed.days[4] = [];
    expect(validateWeek(changed, "°C")).toEqual([{ key: "empty_day", day: 4 }]);
  });

  it("refuses two setpoints at the same time", () => {
    const changed = week();
    changed.days[0] = [changed.days[0][0], { ...changed.days[0][1], time: 25200 }];
    expect(validateWeek(changed, "°C")).toEqual([{ key: "same_time", day: 0, time: 25200 }]);
  });

  it("refuses temperatures outside 4.5 to 32 °C, or 40 to 90 °F", () => {
    const changed = week();
    changed.days[0][0] = { ...changed.days[0][0], temp: toCelsius(4, "°C") };
    expect(validateWeek(changed, "°C")).toEqual([
      { key: "out_of_range", day: 0, time: 25200, min: 4.5, max: 32 },
    ]);
    changed.days[0][0] = { ...changed.days[0][0], temp: toCelsius(91, "°F") };
    expect(validateWeek(changed, "°F")).toEqual([
      { key: "out_of_range", day: 0, time: 25200, min: 40, max: 90 },
    ]);
    // The ends themselves are taken: 40 °F becomes 4.5 °C, 90 °F 32 °C.
    changed.days[0][0] = { ...changed.days[0][0], temp: toCelsius(40, "°F") };
    changed.days[0][1] = { ...changed.days[0][1], temp: toCelsius(90, "°F") };
    expect(validateWeek(changed, "°F")).toEqual([]);
  });

  it("refuses a range whose low is not below its high", () => {
    const changed = changeMode(week(), "RANGE");
    changed.days[3][0] = { ...changed.days[3][0], low: 22, high: 22 };
    expect(validateWeek(changed, "°C")).toEqual([{ key: "range_order", day: 3, time: 25200 }]);
  });

  it("refuses a setpoint without a time", () => {
    const changed = week();
    changed.days[5][0] = { ...changed.days[5][0], time: parseTimeValue("") };
    expect(validateWeek(changed, "°C")).toMatchObject([{ key: "bad_time", day: 5 }]);
  });
});

describe("units", () => {
  it("shows °C to a tenth and °F in whole degrees", () => {
    expect(toUnit(21, "°C")).toBe(21);
    expect(toUnit(7.222, "°C")).toBe(7.2);
    expect(toUnit(21, "°F")).toBe(70);
    expect(toUnit(4.5, "°F")).toBe(40);
  });

  it("stores what is typed as °C in the thermostat's 0.5 steps", () => {
    expect(toCelsius(70, "°F")).toBe(21);
    expect(toCelsius(68, "°F")).toBe(20);
    expect(toCelsius(21.3, "°C")).toBe(21.5);
  });
});

describe("the week as the user reads it", () => {
  it("starts on the user's first weekday; firmware day 0 is Monday", () => {
    expect(dayOrder(1)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(dayOrder(0)).toEqual([6, 0, 1, 2, 3, 4, 5]);
    expect(dayOrder(6)).toEqual([5, 6, 0, 1, 2, 3, 4]);
  });

  it("takes the first weekday from the profile, else from the language", () => {
    expect(firstWeekday("sunday", "de")).toBe(0);
    expect(firstWeekday("monday", "en-US")).toBe(1);
    expect(firstWeekday("language", "en-US")).toBe(0);
    expect(firstWeekday("language", "de-DE")).toBe(1);
    for (const language of ["de", "fr", "nl", "es", "it", "en-GB"]) {
      expect(firstWeekday("language", language), language).toBe(1);
    }
    expect(firstWeekday(undefined, "not a language!")).toBe(1);
  });

  it("names firmware day 0 Monday, in the user's language", () => {
    expect(weekdayNames("en", "long")[0]).toBe("Monday");
    expect(weekdayNames("en", "long")[6]).toBe("Sunday");
    expect(weekdayNames("de", "long")[0]).toBe("Montag");
    expect(weekdayNames("fr", "short")[2]).toMatch(/^mer/);
  });

  it("runs each day from midnight with the setpoint carried over from the day before", () => {
    const week = parseSchedule(STORED);
    const monday = daySegments(week, 0);
    // Before 07:00 on Monday, Sunday's last setpoint (21 °C from 08:00) holds.
    expect(monday[0]).toMatchObject({ start: 0, end: 25200, carried: true });
    expect(monday[0].entry.temp).toBe(21);
    expect(monday.map((s) => [s.start, s.end])).toEqual([
      [0, 25200],
      [25200, 79200],
      [79200, 86400],
    ]);
  });

  it("writes times as an input shows them", () => {
    expect(timeValue(25200)).toBe("07:00");
    expect(timeValue(79260)).toBe("22:01");
    expect(parseTimeValue("07:30")).toBe(27000);
    expect(parseTimeValue("24:00")).toBeNaN();
  });
});

describe("editing", () => {
  it("copies a day's setpoints to other days, replacing theirs", () => {
    const week = parseSchedule(STORED);
    const copied = copyDay(week, 1, [3, 4]);
    for (const day of [3, 4]) {
      expect(copied.days[day].map((e) => [e.time, e.temp])).toEqual([
        [21600, 20.5],
        [79200, 16],
      ]);
    }
    expect(copied.days[5]).toBe(week.days[5]);
    expect(week.days[3]).toHaveLength(1); // the original week is unchanged
  });

  it("turns entries into the new mode's kind", () => {
    const week = parseSchedule(STORED);
    const range = changeMode(week, "RANGE");
    expect(range.days[0][0]).toMatchObject({ type: "RANGE", low: 21, high: 24 });
    expect(changeMode(range, "COOL").days[0][0]).toMatchObject({ type: "COOL", temp: 24 });
    expect(serializeWeek(range).schedule_mode).toBe("RANGE");
  });
});

describe("strings", () => {
  it("are in the user's language, English where one is missing", () => {
    expect(localize("de", "save")).toBe("Speichern");
    expect(localize("de-CH", "save")).toBe("Speichern");
    expect(localize("xx", "save")).toBe("Save");
    expect(localize("fr-BE", "save")).toBe("Enregistrer");
    expect(localize("nl", "copy_to", { day: "maandag" })).toBe("maandag kopiëren naar");
    expect(localize("es", "title", { name: "Salón" })).toBe("Programación de Salón");
    expect(localize("it", "heat")).toBe("Riscaldamento");
    expect(localize("en", "empty_day", { day: "Monday" })).toBe(
      "Monday has no setpoints: add one or copy another day onto it.",
    );
  });
});
