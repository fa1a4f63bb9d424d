/**
 * The week at a glance: a line a day, each setpoint a segment coloured by mode and shaded by
 * temperature, the hours under them, and the mode menu in the card's header.
 */
import { html, nothing, type TemplateResult } from "lit";

import { parseCssColor, readableOn } from "./contrast";
import { MODES, changeMode, daySegments, type Entry, type Mode, type Week } from "./schedule";
import type { ScheduleText } from "./schedule-text";

const HOURS = [0, 6, 12, 18, 24];
/** Room kept between a segment's number and the next segment. */
const LABEL_MARGIN_PX = 2;

/** What the week is drawn from, and what a tap on a day does. */
export interface WeekView {
  text: ScheduleText;
  week: Week;
  /** The days in the order the user's week runs (its first day first). */
  order: number[];
  /** Each day's name, long and short, by its index in the schedule. */
  names: string[];
  shortNames: string[];
  /** The day open in the editor, if any. */
  openDay: number | undefined;
  /** Open a day (undefined: close the open one). */
  toggleDay(day: number | undefined): void;
  /** The editor of the open day, drawn under its line. */
  dayEditor(day: number): TemplateResult;
}

export function renderModeMenu(
  text: ScheduleText,
  week: Week,
  edit: (week: Week) => void,
): TemplateResult {
  return html`
    <label class="mode">
      <span class="visually-hidden">${text.t("mode")}</span>
      <select
        aria-label=${text.t("mode")}
        .value=${week.mode}
        @change=${(ev: Event) => edit(changeMode(week, (ev.target as HTMLSelectElement).value as Mode))}
      >
        ${MODES.map(
          (mode) =>
            html`<option value=${mode} ?selected=${mode === week.mode}>
              ${text.mode(mode)}
            </option>`,
        )}
      </select>
    </label>
  `;
}

export function renderWeek(view: WeekView): TemplateResult {
  return html`
    <div class="week" role="list">
      ${view.order.map((day) => renderDay(view, day))}
      <div class="hours" aria-hidden="true">
        <span></span>
        <div class="scale">
          ${HOURS.map(
            (hour) => html`<span style="left:${(hour / 24) * 100}%">${view.text.hour(hour % 24)}</span>`,
          )}
        </div>
      </div>
    </div>
  `;
}

function renderDay(view: WeekView, day: number): TemplateResult {
  const { text, week, names } = view;
  const open = view.openDay === day;
  const segments = daySegments(week, day);
  const [coolest, warmest] = temperatureSpan(week);
  return html`
    <div class="day ${open ? "open" : ""}" role="listitem">
      <button
        class="day-line"
        aria-expanded=${open ? "true" : "false"}
        aria-label=${text.t("edit_day", { day: names[day] })}
        @click=${() => view.toggleDay(open ? undefined : day)}
      >
        <span class="day-name" title=${names[day]}>${view.shortNames[day]}</span>
        <span class="line">
          ${segments.map((segment) => {
            // Warmer setpoints in a stronger colour, so the shape of the day shows.
            const share = shade(middle(segment.entry), coolest, warmest);
            const value = text.entryLabel(segment.entry);
            // The value in full on hover; a tap opens the day with every setpoint written out.
            const title = segment.carried
              ? `${text.time(segment.start)} ${value} (${text.t("carried_over")})`
              : `${text.time(segment.start)} ${value}`;
            return html`<span
              class="segment ${segment.entry.type.toLowerCase()} ${segment.carried ? "carried" : ""}"
              style="left:${(segment.start / 864).toFixed(3)}%;width:${(
                (segment.end - segment.start) /
                864
              ).toFixed(3)}%;--tc-share:${share}%"
              title=${title}
              ><span class="label">${text.entryNumbers(segment.entry)}</span></span
            >`;
          })}
        </span>
      </button>
      ${open ? view.dayEditor(day) : nothing}
    </div>
  `;
}

/**
 * Each segment's number drawn whole or not at all (a clipped "16.5" reads "16", or "1" on a
 * phone), in black or white, whichever reads better on the colour the theme gave it. Run
 * after every render and when the card's width changes: only the laid-out page knows.
 */
export function fitLabels(root: ParentNode): void {
  for (const segment of root.querySelectorAll<HTMLElement>(".segment")) {
    const label = segment.querySelector<HTMLElement>(".label");
    if (!label) continue;
    label.hidden = false;
    const room = segment.getBoundingClientRect();
    const drawn = label.getBoundingClientRect();
    label.hidden = drawn.left < room.left || drawn.right > room.right - LABEL_MARGIN_PX;
    const background = parseCssColor(getComputedStyle(segment).backgroundColor);
    if (background) label.style.color = readableOn(background);
  }
}

/** The temperature an entry holds (a range's middle), in °C. */
function middle(entry: Entry): number {
  return entry.type === "RANGE" ? (entry.low! + entry.high!) / 2 : entry.temp!;
}

/** The coolest and warmest setpoint of the week, in °C. */
function temperatureSpan(week: Week): [number, number] {
  const temperatures = week.days.flat().map(middle).filter(Number.isFinite);
  return temperatures.length ? [Math.min(...temperatures), Math.max(...temperatures)] : [0, 0];
}

/** How much of the mode's colour a setpoint gets: 45 % for the coolest to 100 % for the warmest. */
function shade(celsius: number, coolest: number, warmest: number): number {
  if (!Number.isFinite(celsius) || warmest <= coolest) return 100;
  return Math.round(45 + (55 * (celsius - coolest)) / (warmest - coolest));
}
