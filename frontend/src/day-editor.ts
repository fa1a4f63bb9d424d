/**
 * The open day's editor: each setpoint's time and temperature, a setpoint added or removed, and
 * the day copied to other days. Every change makes a new week, which the card keeps until saved.
 */
import { html, type TemplateResult } from "lit";
import { mdiClose, mdiContentCopy, mdiDelete, mdiPlus } from "@mdi/js";

import { icon, iconButton } from "./icons";
import {
  DAYS,
  LIMITS,
  copyDay,
  makeEntry,
  parseTimeValue,
  sortEntries,
  timeValue,
  toCelsius,
  toUnit,
  weekdayNames,
  type Entry,
  type Week,
} from "./schedule";
import type { ScheduleText } from "./schedule-text";

/** The day the editor shows, and how its changes reach the card. */
export interface DayEditor {
  text: ScheduleText;
  week: Week;
  day: number;
  /** Each day's long name by its index in the schedule; the days in the order the user's week runs. */
  names: string[];
  order: number[];
  /** The days ticked to copy the open day to. */
  copyTargets: ReadonlySet<number>;
  /** Change the week being edited: `change` gets the card's week as it is when the user acts. */
  editWeek(change: (week: Week) => Week): void;
  setCopyTargets(days: Set<number>): void;
  close(): void;
}

export function renderDayEditor(editor: DayEditor): TemplateResult {
  const { text, week, day, names } = editor;
  const limits = LIMITS[text.unit];
  const entries = week.days[day];
  const setEntry = (index: number, fields: Partial<Entry>): void =>
    editor.editWeek((current) => withEntry(current, day, index, fields));
  const temperatureInput = (entry: Entry, index: number, field: "temp" | "low" | "high", label: string) => html`
    <label class="field">
      <span>${label}</span>
      <span class="with-unit">
        <input
          type="number"
          inputmode="decimal"
          min=${limits.min}
          max=${limits.max}
          step=${limits.step}
          .value=${Number.isFinite(entry[field]) ? String(toUnit(entry[field]!, text.unit)) : ""}
          @change=${(ev: Event) => {
            const value = (ev.target as HTMLInputElement).value;
            const number = value.trim() === "" ? NaN : Number(value);
            setEntry(index, { [field]: toCelsius(number, text.unit) });
          }}
        />
        <span class="unit">${text.unit}</span>
      </span>
    </label>
  `;
  return html`
    <div class="editor">
      <div class="editor-head">
        <h3>${names[day]}</h3>
        ${iconButton(mdiClose, text.t("close_day"), editor.close)}
      </div>
      <ul class="entries">
        ${entries.map((entry, index) =>
          entry.continuation
            ? html`<li class="entry carried">
                <span>${text.time(entry.time)}</span>
                <span>${text.entryLabel(entry)}</span>
                <span class="hint">${text.t("carried_over")}</span>
              </li>`
            : html`<li class="entry ${entry.type.toLowerCase()}">
                <label class="field">
                  <span>${text.t("time")}</span>
                  <input
                    type="time"
                    step="60"
                    required
                    .value=${Number.isFinite(entry.time) ? timeValue(entry.time) : ""}
                    @change=${(ev: Event) =>
                      setEntry(index, { time: parseTimeValue((ev.target as HTMLInputElement).value) })}
                  />
                </label>
                ${entry.type === "RANGE"
                  ? html`${temperatureInput(entry, index, "low", text.t("low"))}
                    ${temperatureInput(entry, index, "high", text.t("high"))}`
                  : temperatureInput(entry, index, "temp", text.mode(entry.type))}
                ${iconButton(mdiDelete, text.t("remove_setpoint"), () =>
                  editor.editWeek((current) => withoutEntry(current, day, index)),
                )}
              </li>`,
        )}
      </ul>
      <button class="add" @click=${() => editor.editWeek((current) => withNewEntry(current, day))}>
        ${icon(mdiPlus)} ${text.t("add_setpoint")}
      </button>
      ${renderCopy(editor)}
    </div>
  `;
}

/** The open day copied to the days ticked (every other day with one tap). */
function renderCopy(editor: DayEditor): TemplateResult {
  const { text, day, copyTargets } = editor;
  const shortNames = weekdayNames(text.language, "short");
  const tick = (other: number, on: boolean): void => {
    const targets = new Set(copyTargets);
    if (on) targets.add(other);
    else targets.delete(other);
    editor.setCopyTargets(targets);
  };
  const everyOtherDay = (): void =>
    editor.setCopyTargets(new Set(Array.from({ length: DAYS }, (_, d) => d).filter((d) => d !== day)));
  const copy = (): void => {
    editor.editWeek((current) => copyDay(current, day, copyTargets));
    editor.setCopyTargets(new Set());
  };
  return html`<fieldset class="copy">
    <legend>${text.t("copy_to", { day: editor.names[day] })}</legend>
    <div class="chips">
      ${editor.order
        .filter((other) => other !== day)
        .map(
          (other) => html`<label class="chip">
            <input
              type="checkbox"
              .checked=${copyTargets.has(other)}
              @change=${(ev: Event) => tick(other, (ev.target as HTMLInputElement).checked)}
            />
            ${shortNames[other]}
          </label>`,
        )}
      <button class="link" @click=${everyOtherDay}>${text.t("all_days")}</button>
    </div>
    <button ?disabled=${copyTargets.size === 0} @click=${copy}>
      ${icon(mdiContentCopy)} ${text.t("copy")}
    </button>
  </fieldset>`;
}

/** The week with one day's entries changed, kept in time order. */
function withDay(week: Week, day: number, change: (entries: Entry[]) => Entry[]): Week {
  const days = [...week.days];
  days[day] = sortEntries(change([...days[day]]));
  return { ...week, days };
}

function withEntry(week: Week, day: number, index: number, fields: Partial<Entry>): Week {
  return withDay(week, day, (entries) => {
    entries[index] = { ...entries[index], ...fields };
    return entries;
  });
}

function withoutEntry(week: Week, day: number, index: number): Week {
  return withDay(week, day, (entries) => entries.filter((_, i) => i !== index));
}

/** A new setpoint an hour after the day's last (its temperature), or at noon at 20 °C. */
function withNewEntry(week: Week, day: number): Week {
  const setpoints = week.days[day].filter((e) => !e.continuation && Number.isFinite(e.time));
  const last = setpoints[setpoints.length - 1];
  const time = last ? Math.min(last.time + 3600, 23 * 3600) : 12 * 3600;
  const celsius = last ? (last.type === "RANGE" ? last.low! : last.temp!) : 20;
  return withDay(week, day, (entries) => [
    ...entries,
    makeEntry(week.mode, time, Number.isFinite(celsius) ? celsius : 20),
  ]);
}
