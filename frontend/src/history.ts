/**
 * The history card's figures: the days of `thermostat_cloud.get_energy_report` (a month per
 * call, in Home Assistant's time zone), the last ten of them, and how tall each bar is.
 */

export const HISTORY_DAYS = 10;
/** Fewer days with figures than this among the last ten: the card says the history is filling. */
export const MIN_DAYS_WITH_DATA = 2;

export type Reason = "colder" | "warmer" | "adjusted" | "away_more" | "away_less" | "schedule";
export const REASONS: readonly Reason[] = [
  "colder",
  "warmer",
  "adjusted",
  "away_more",
  "away_less",
  "schedule",
];

/** One thermostat's day as the report gives it (server/core/days.py `day_figures`). */
export interface ReportDay {
  date: string;
  hours: number;
  runtime_hours: Record<string, number>;
  heating_hours: number;
  cooling_hours: number;
  heating_degree_days: number | null;
  cooling_degree_days: number | null;
  eco_hours: number;
  away_hours: number;
  leaf_hours: number;
  changes: Record<string, number>;
  schedule_edits: number;
  has_data: boolean;
  reasons: string[];
  main_reason: string | null;
}

export interface EnergyReport {
  period: string;
  start: string;
  end: string;
  thermostats: Array<{ entity_id: string | null; serial: string; days: ReportDay[] }>;
}

/** The day before an ISO date (YYYY-MM-DD), as an ISO date: calendar arithmetic, no zone. */
export function dayBefore(iso: string): string {
  const [year, month, day] = iso.split("-").map(Number);
  return new Date(Date.UTC(year, month - 1, day - 1)).toISOString().slice(0, 10);
}

/** The days of a thermostat in the reports (oldest first), the last `count` of them. */
export function lastDays(reports: EnergyReport[], entity: string, count = HISTORY_DAYS): ReportDay[] {
  const byDate = new Map<string, ReportDay>();
  for (const report of reports) {
    const thermostat = report.thermostats.find((t) => t.entity_id === entity) ?? report.thermostats[0];
    for (const day of thermostat?.days ?? []) byDate.set(day.date, day);
  }
  return [...byDate.values()].sort((a, b) => a.date.localeCompare(b.date)).slice(-count);
}

/** The reason the card shows an icon for, or undefined for a usual day (or an unknown reason). */
export function mainReason(day: ReportDay): Reason | undefined {
  return REASONS.find((reason) => reason === day.main_reason);
}

/** The bars' top: the longest day's heating and cooling, rounded up to a whole hour (at least 1). */
export function scaleHours(days: ReportDay[]): number {
  const longest = Math.max(0, ...days.map((day) => day.heating_hours + day.cooling_hours));
  return Math.max(1, Math.ceil(longest));
}

/** The equipment of a day that ran, longest first. */
export function equipmentRun(day: ReportDay): Array<[string, number]> {
  return Object.entries(day.runtime_hours)
    .filter(([, hours]) => hours > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/** The changes of a day by source, most first, with schedule edits as a source of their own. */
export function changesBySource(day: ReportDay): Array<[string, number]> {
  const changes = Object.entries(day.changes).filter(([, count]) => count > 0);
  if (day.schedule_edits > 0) changes.push(["schedule_edit", day.schedule_edits]);
  return changes.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}
