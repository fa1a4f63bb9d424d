import { describe, expect, it } from "vitest";

import {
  changesBySource,
  dayBefore,
  equipmentRun,
  lastDays,
  mainReason,
  scaleHours,
  type EnergyReport,
  type ReportDay,
} from "../src/history";

function day(date: string, figures: Partial<ReportDay> = {}): ReportDay {
  return {
    date,
    hours: 24,
    runtime_hours: {},
    heating_hours: 0,
    cooling_hours: 0,
    heating_degree_days: null,
    cooling_degree_days: null,
    eco_hours: 0,
    away_hours: 0,
    leaf_hours: 0,
    changes: {},
    schedule_edits: 0,
    has_data: true,
    reasons: [],
    main_reason: null,
    ...figures,
  };
}

function month(start: string, end: string, dates: string[]): EnergyReport {
  return {
    period: "month",
    start,
    end,
    thermostats: [{ entity_id: "climate.living_room", serial: "S", days: dates.map((d) => day(d)) }],
  };
}

describe("the last ten days", () => {
  it("crosses a month and a year back, by the calendar", () => {
    expect(dayBefore("2026-03-01")).toBe("2026-02-28");
    expect(dayBefore("2028-03-01")).toBe("2028-02-29");
    expect(dayBefore("2027-01-01")).toBe("2026-12-31");
  });

  it("joins last month's end to this month's start, oldest first", () => {
    const november = Array.from({ length: 30 }, (_, i) => `2026-11-${String(i + 1).padStart(2, "0")}`);
    const reports = [
      month("2026-12-01", "2026-12-03", ["2026-12-01", "2026-12-02", "2026-12-03"]),
      month("2026-11-01", "2026-11-30", november),
    ];
    const dates = lastDays(reports, "climate.living_room").map((d) => d.date);
    expect(dates).toEqual([
      "2026-11-24",
      "2026-11-25",
      "2026-11-26",
      "2026-11-27",
      "2026-11-28",
      "2026-11-29",
      "2026-11-30",
      "2026-12-01",
      "2026-12-02",
      "2026-12-03",
    ]);
  });
});

describe("a day's bar and details", () => {
  it("scales to the longest day, whole hours, at least one", () => {
    expect(scaleHours([day("a", { heating_hours: 5.25, cooling_hours: 1 }), day("b")])).toBe(7);
    expect(scaleHours([day("a")])).toBe(1);
  });

  it("names only the reasons it has an icon for", () => {
    expect(mainReason(day("a", { main_reason: "colder" }))).toBe("colder");
    expect(mainReason(day("a", { main_reason: "something_new" }))).toBeUndefined();
    expect(mainReason(day("a"))).toBeUndefined();
  });

  it("lists what ran and who changed what, most first", () => {
    const busy = day("a", {
      runtime_hours: { fan: 6, heating_stage_1: 5.5, cooling_stage_1: 0 },
      changes: { dial: 1, person: 3, automation: 0 },
      schedule_edits: 2,
    });
    expect(equipmentRun(busy)).toEqual([
      ["fan", 6],
      ["heating_stage_1", 5.5],
    ]);
    expect(changesBySource(busy)).toEqual([
      ["person", 3],
      ["schedule_edit", 2],
      ["dial", 1],
    ]);
  });
});
