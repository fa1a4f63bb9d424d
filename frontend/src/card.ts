import { LitElement, css, html, nothing, svg, type PropertyValues, type TemplateResult } from "lit";
import { mdiClose, mdiContentCopy, mdiDelete, mdiPlus } from "@mdi/js";

import {
  CARD_TYPE,
  DOMAIN,
  EDITOR_TYPE,
  WS_SUBSCRIBE_SCHEDULE,
  type EcoMessage,
  type HoldMessage,
  type ScheduleMessage,
} from "./const";
import { parseCssColor, readableOn } from "./contrast";
import { localize, type StringKey } from "./localize";
import {
  DAYS,
  LIMITS,
  MODES,
  canonical,
  changeMode,
  copyDay,
  dayOrder,
  daySegments,
  firstWeekday,
  makeEntry,
  newWeek,
  parseSchedule,
  parseTimeValue,
  serializeWeek,
  sortEntries,
  timeValue,
  toCelsius,
  toUnit,
  unitOf,
  validateWeek,
  weekdayNames,
  type Entry,
  type Mode,
  type Problem,
  type Unit,
  type Week,
} from "./schedule";
import type { CardConfig, HassError, HomeAssistant } from "./types";

const MODE_LABELS: Record<Mode, StringKey> = { HEAT: "heat", COOL: "cool", RANGE: "range" };
const HOURS = [0, 6, 12, 18, 24];
/** Room kept between a segment's number and the next segment. */
const LABEL_MARGIN_PX = 2;

/** The first climate entity of the integration, for a card just added from the picker. */
export function firstThermostat(hass: HomeAssistant): string | undefined {
  const ours = Object.values(hass.entities ?? {}).find(
    (entry) => entry.platform === DOMAIN && entry.entity_id.startsWith("climate."),
  );
  return ours?.entity_id;
}

export class ThermostatCloudScheduleCard extends LitElement {
  static properties = {
    hass: { attribute: false },
    _config: { state: true },
    _message: { state: true },
    _base: { state: true },
    _week: { state: true },
    _theirs: { state: true },
    _day: { state: true },
    _copyTargets: { state: true },
    _turnOffLearning: { state: true },
    _saving: { state: true },
    _saved: { state: true },
    _error: { state: true },
  };

  hass?: HomeAssistant;
  private _config?: CardConfig;
  /** Undefined until the first message of the subscription. */
  private _message?: ScheduleMessage;
  /** The schedule as the thermostat has it (parsed), and the one being edited. */
  private _base?: Week;
  private _week?: Week;
  /** The thermostat's schedule when it changed under unsaved edits. */
  private _theirs?: Week;
  private _day?: number;
  private _copyTargets = new Set<number>();
  private _turnOffLearning = true;
  private _saving = false;
  private _saved = false;
  private _error?: string;

  private _unsubscribe?: Promise<(() => Promise<void>) | undefined>;
  private _subscribedTo?: { entity: string; connection: unknown };
  private _resized?: ResizeObserver;

  static getConfigElement(): HTMLElement {
    return document.createElement(EDITOR_TYPE);
  }

  static getStubConfig(hass: HomeAssistant): CardConfig {
    return { type: `custom:${CARD_TYPE}`, entity: firstThermostat(hass) ?? "" };
  }

  setConfig(config: CardConfig): void {
    if (!config || typeof config !== "object") throw new Error("Invalid configuration");
    if (config.entity && !config.entity.startsWith("climate.")) {
      throw new Error("entity must be a climate entity of Thermostat Cloud");
    }
    this._config = config;
  }

  getCardSize(): number {
    return 9;
  }

  getGridOptions(): Record<string, unknown> {
    return { columns: 12, min_columns: 6, rows: "auto" };
  }

  connectedCallback(): void {
    super.connectedCallback();
    this._subscribe();
    this._resized ??= new ResizeObserver(() => this._fitLabels());
    this._resized.observe(this);
  }

  disconnectedCallback(): void {
    super.disconnectedCallback();
    this._unsubscribeNow();
    this._resized?.disconnect();
  }

  /** Home Assistant sets `hass` on every state change anywhere: render for ours only. */
  protected shouldUpdate(changed: PropertyValues): boolean {
    if (changed.size !== 1 || !changed.has("hass")) return true;
    const old = changed.get("hass") as HomeAssistant | undefined;
    const hass = this.hass;
    if (!old || !hass) return true;
    const entity = this._config?.entity;
    return (
      old.connection !== hass.connection ||
      old.language !== hass.language ||
      old.locale !== hass.locale ||
      old.config !== hass.config ||
      old.themes !== hass.themes ||
      (entity !== undefined && old.states[entity] !== hass.states[entity])
    );
  }

  protected updated(changed: PropertyValues): void {
    if (changed.has("hass") || changed.has("_config")) this._subscribe();
    this._fitLabels();
  }

  /**
   * Each segment's number drawn whole or not at all (a clipped "16.5" reads "16", or "1" on a
   * phone), in black or white, whichever reads better on the colour the theme gave it. Run
   * after every render and when the card's width changes: only the laid-out page knows.
   */
  private _fitLabels(): void {
    for (const segment of this.renderRoot.querySelectorAll<HTMLElement>(".segment")) {
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

  // -- the schedule from the integration -------------------------------------------------------

  private _subscribe(): void {
    const entity = this._config?.entity;
    const connection = this.hass?.connection;
    if (!this.isConnected || !entity || !connection) return;
    const current = this._subscribedTo;
    if (current && current.entity === entity && current.connection === connection) return;
    this._unsubscribeNow();
    this._subscribedTo = { entity, connection };
    this._message = undefined;
    this._base = this._week = this._theirs = undefined;
    this._error = undefined;
    this._unsubscribe = connection
      .subscribeMessage<ScheduleMessage>((message) => this._received(message), {
        type: WS_SUBSCRIBE_SCHEDULE,
        entity_id: entity,
      })
      .catch((err: HassError) => {
        this._error = this._describe(err);
        return undefined;
      });
  }

  private _unsubscribeNow(): void {
    const pending = this._unsubscribe;
    this._unsubscribe = undefined;
    this._subscribedTo = undefined;
    pending?.then((unsubscribe) => unsubscribe?.()).catch(() => undefined);
  }

  private _received(message: ScheduleMessage): void {
    this._message = message;
    const theirs = message.schedule ? parseSchedule(message.schedule) : undefined;
    if (!this._dirty || (theirs && this._week && same(theirs, this._week))) {
      this._base = theirs;
      this._week = theirs;
      this._theirs = undefined;
    } else {
      // Unsaved edits stay; the user chooses (their edit wins on save, or load the thermostat's).
      this._base = theirs;
      this._theirs = theirs;
    }
  }

  private get _dirty(): boolean {
    if (!this._week) return false;
    return !this._base || !same(this._base, this._week);
  }

  // -- what the user sees -------------------------------------------------------------------------

  private get _language(): string {
    return this.hass?.locale?.language ?? this.hass?.language ?? "en";
  }

  private _t(key: StringKey, placeholders?: Record<string, string | number>): string {
    return localize(this.hass?.language, key, placeholders);
  }

  private get _unit(): Unit {
    return unitOf(this.hass?.config.unit_system.temperature);
  }

  private _temperature(celsius: number | undefined): string {
    if (celsius === undefined || !Number.isFinite(celsius)) return "–";
    const value = toUnit(celsius, this._unit);
    return `${value.toLocaleString(this._language)} ${this._unit}`;
  }

  private _entryLabel(entry: Entry): string {
    return entry.type === "RANGE"
      ? `${this._temperature(entry.low)} – ${this._temperature(entry.high)}`
      : this._temperature(entry.temp);
  }

  /** The setpoint without its unit, for the day's line where room is short. */
  private _entryNumbers(entry: Entry): string {
    const number = (celsius: number | undefined): string =>
      celsius === undefined || !Number.isFinite(celsius)
        ? "–"
        : toUnit(celsius, this._unit).toLocaleString(this._language);
    return entry.type === "RANGE" ? `${number(entry.low)}–${number(entry.high)}` : number(entry.temp);
  }

  private _hour(hour: number): string {
    try {
      return new Date(Date.UTC(2024, 0, 1, hour)).toLocaleTimeString(this._language, {
        hour: "numeric",
        timeZone: "UTC",
      });
    } catch {
      return String(hour);
    }
  }

  private _time(seconds: number): string {
    const date = new Date(Date.UTC(2024, 0, 1, 0, 0, seconds));
    try {
      return date.toLocaleTimeString(this._language, {
        hour: "numeric",
        minute: "2-digit",
        timeZone: "UTC",
      });
    } catch {
      return timeValue(seconds);
    }
  }

  protected render(): TemplateResult {
    const config = this._config;
    const entity = config?.entity;
    const stateObj = entity ? this.hass?.states[entity] : undefined;
    const name = stateObj?.attributes.friendly_name ?? entity ?? "";
    const title = config?.title || (entity ? this._t("title", { name }) : this._t("card_name"));
    return html`
      <ha-card>
        <div class="header">
          <h2 class="title">${title}</h2>
          ${this._week ? this._renderMode(this._week) : nothing}
        </div>
        <div class="content">${this._renderBody(entity)}</div>
      </ha-card>
    `;
  }

  private _renderBody(entity: string | undefined): TemplateResult {
    if (!entity) return html`<p class="note">${this._t("no_entity")}</p>`;
    if (this._error && !this._message) {
      return html`<p class="message error" role="alert">${this._error}</p>`;
    }
    if (!this._message) return html`<p class="note">${this._t("loading")}</p>`;
    const week = this._week;
    if (!week) {
      return html`
        <p class="note">${this._t("no_schedule")}</p>
        <div class="actions">
          <button class="primary" @click=${() => (this._week = newWeek("HEAT"))}>
            ${this._t("create_schedule")}
          </button>
        </div>
      `;
    }
    const problems = validateWeek(week, this._unit);
    const names = weekdayNames(this._language, "long");
    const shortNames = weekdayNames(this._language, "short");
    const order = dayOrder(firstWeekday(this.hass?.locale?.first_weekday, this._language));
    return html`
      ${this._message.learning
        ? html`<div class="message warning" role="note">
            <p>${this._t("learning_on")}</p>
            <label class="check">
              <input
                type="checkbox"
                .checked=${this._turnOffLearning}
                @change=${(ev: Event) =>
                  (this._turnOffLearning = (ev.target as HTMLInputElement).checked)}
              />
              ${this._t("turn_off_learning")}
            </label>
          </div>`
        : nothing}
      ${this._message.eco
        ? this._renderEco(this._message.eco)
        : this._message.hold
          ? this._renderHold(this._message.hold)
          : nothing}
      ${this._theirs
        ? html`<div class="message warning" role="status">
            <p>${this._t("changed_on_thermostat")}</p>
            <button @click=${this._loadTheirs}>${this._t("load_theirs")}</button>
          </div>`
        : nothing}
      <div class="week" role="list">
        ${order.map((day) => this._renderDay(week, day, names, shortNames, order))}
        <div class="hours" aria-hidden="true">
          <span></span>
          <div class="scale">
            ${HOURS.map(
              (hour) =>
                html`<span style="left:${(hour / 24) * 100}%">${this._hour(hour % 24)}</span>`,
            )}
          </div>
        </div>
      </div>
      ${problems.length ? this._renderProblems(problems, names) : nothing}
      ${this._error ? html`<p class="message error" role="alert">${this._error}</p>` : nothing}
      ${this._saved && !this._dirty ? html`<p class="message ok" role="status">${this._t("saved")}</p>` : nothing}
      <div class="actions">
        <button ?disabled=${!this._dirty || this._saving} @click=${this._discard}>
          ${this._t("discard")}
        </button>
        <button
          class="primary"
          ?disabled=${!this._dirty || this._saving || problems.length > 0}
          @click=${this._save}
        >
          ${this._saving ? this._t("saving") : this._t("save")}
        </button>
      </div>
    `;
  }

  /** The hold the server keeps over the schedule, and the way back to the schedule now. */
  private _renderHold(hold: HoldMessage): TemplateResult {
    const temperature =
      hold.target !== null
        ? this._temperature(hold.target)
        : `${this._temperature(hold.low ?? undefined)} – ${this._temperature(hold.high ?? undefined)}`;
    let until = hold.until;
    try {
      until = new Date(hold.until).toLocaleString(this._language, {
        weekday: "short",
        hour: "numeric",
        minute: "2-digit",
      });
    } catch {
      // An unknown language: the ISO time as sent.
    }
    return html`<div class="message hold" role="status">
      <p>${this._t("hold", { temperature, until })}</p>
      <button @click=${this._resumeSchedule}>${this._t("resume_schedule")}</button>
    </div>`;
  }

  /** Away or eco: the range the house keeps now, in place of the schedule (and of a hold). */
  private _renderEco(eco: EcoMessage): TemplateResult {
    const range = {
      low: this._temperature(eco.low ?? undefined),
      high: this._temperature(eco.high ?? undefined),
    };
    return html`<div class="message hold eco" role="status">
      <p>${this._t(eco.away ? "away" : "eco", range)}</p>
    </div>`;
  }

  private async _resumeSchedule(): Promise<void> {
    const entity = this._config?.entity;
    if (!this.hass || !entity) return;
    this._error = undefined;
    try {
      await this.hass.callService(DOMAIN, "resume_schedule", {}, { entity_id: entity });
    } catch (err) {
      this._error = this._describe(err as HassError);
    }
  }

  private _renderMode(week: Week): TemplateResult {
    return html`
      <label class="mode">
        <span class="visually-hidden">${this._t("mode")}</span>
        <select
          aria-label=${this._t("mode")}
          .value=${week.mode}
          @change=${(ev: Event) =>
            this._edit(changeMode(week, (ev.target as HTMLSelectElement).value as Mode))}
        >
          ${MODES.map(
            (mode) =>
              html`<option value=${mode} ?selected=${mode === week.mode}>
                ${this._t(MODE_LABELS[mode])}
              </option>`,
          )}
        </select>
      </label>
    `;
  }

  private _renderDay(
    week: Week,
    day: number,
    names: string[],
    shortNames: string[],
    order: number[],
  ): TemplateResult {
    const open = this._day === day;
    const segments = daySegments(week, day);
    const [coolest, warmest] = temperatureSpan(week);
    return html`
      <div class="day ${open ? "open" : ""}" role="listitem">
        <button
          class="day-line"
          aria-expanded=${open ? "true" : "false"}
          aria-label=${this._t("edit_day", { day: names[day] })}
          @click=${() => this._openDay(open ? undefined : day)}
        >
          <span class="day-name" title=${names[day]}>${shortNames[day]}</span>
          <span class="line">
            ${segments.map((segment) => {
              // Warmer setpoints in a stronger colour, so the shape of the day shows.
              const share = shade(middle(segment.entry), coolest, warmest);
              const value = this._entryLabel(segment.entry);
              // The value in full on hover; a tap opens the day with every setpoint written out.
              const title = segment.carried
                ? `${this._time(segment.start)} ${value} (${this._t("carried_over")})`
                : `${this._time(segment.start)} ${value}`;
              return html`<span
                class="segment ${segment.entry.type.toLowerCase()} ${segment.carried ? "carried" : ""}"
                style="left:${(segment.start / 864).toFixed(3)}%;width:${(
                  (segment.end - segment.start) /
                  864
                ).toFixed(3)}%;--tc-share:${share}%"
                title=${title}
                ><span class="label">${this._entryNumbers(segment.entry)}</span></span
              >`;
            })}
          </span>
        </button>
        ${open ? this._renderDayEditor(week, day, names, order) : nothing}
      </div>
    `;
  }

  private _renderDayEditor(week: Week, day: number, names: string[], order: number[]): TemplateResult {
    const limits = LIMITS[this._unit];
    const entries = week.days[day];
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
            .value=${Number.isFinite(entry[field]) ? String(toUnit(entry[field]!, this._unit)) : ""}
            @change=${(ev: Event) =>
              this._setTemperature(day, index, field, (ev.target as HTMLInputElement).value)}
          />
          <span class="unit">${this._unit}</span>
        </span>
      </label>
    `;
    return html`
      <div class="editor">
        <div class="editor-head">
          <h3>${names[day]}</h3>
          ${iconButton(mdiClose, this._t("close_day"), () => this._openDay(undefined))}
        </div>
        <ul class="entries">
          ${entries.map((entry, index) =>
            entry.continuation
              ? html`<li class="entry carried">
                  <span>${this._time(entry.time)}</span>
                  <span>${this._entryLabel(entry)}</span>
                  <span class="hint">${this._t("carried_over")}</span>
                </li>`
              : html`<li class="entry ${entry.type.toLowerCase()}">
                  <label class="field">
                    <span>${this._t("time")}</span>
                    <input
                      type="time"
                      step="60"
                      required
                      .value=${Number.isFinite(entry.time) ? timeValue(entry.time) : ""}
                      @change=${(ev: Event) =>
                        this._setTime(day, index, (ev.target as HTMLInputElement).value)}
                    />
                  </label>
                  ${entry.type === "RANGE"
                    ? html`${temperatureInput(entry, index, "low", this._t("low"))}
                      ${temperatureInput(entry, index, "high", this._t("high"))}`
                    : temperatureInput(entry, index, "temp", this._t(MODE_LABELS[entry.type]))}
                  ${iconButton(mdiDelete, this._t("remove_setpoint"), () => this._remove(day, index))}
                </li>`,
          )}
        </ul>
        <button class="add" @click=${() => this._add(day)}>
          ${icon(mdiPlus)} ${this._t("add_setpoint")}
        </button>
        <fieldset class="copy">
          <legend>${this._t("copy_to", { day: names[day] })}</legend>
          <div class="chips">
            ${order
              .filter((other) => other !== day)
              .map(
                (other) => html`<label class="chip">
                  <input
                    type="checkbox"
                    .checked=${this._copyTargets.has(other)}
                    @change=${(ev: Event) => this._toggleCopy(other, (ev.target as HTMLInputElement).checked)}
                  />
                  ${weekdayNames(this._language, "short")[other]}
                </label>`,
              )}
            <button class="link" @click=${() => this._selectAllCopy(day)}>${this._t("all_days")}</button>
          </div>
          <button ?disabled=${this._copyTargets.size === 0} @click=${() => this._copy(day)}>
            ${icon(mdiContentCopy)} ${this._t("copy")}
          </button>
        </fieldset>
      </div>
    `;
  }

  private _renderProblems(problems: Problem[], names: string[]): TemplateResult {
    return html`
      <div class="message error" role="alert">
        <p>${this._t("problems")}</p>
        <ul>
          ${problems.map((problem) => {
            const placeholders: Record<string, string | number> = { day: names[problem.day] };
            if ("time" in problem && Number.isFinite(problem.time)) {
              placeholders.time = this._time(problem.time);
            }
            if (problem.key === "out_of_range") {
              placeholders.min = `${problem.min} ${this._unit}`;
              placeholders.max = `${problem.max} ${this._unit}`;
            }
            return html`<li>${this._t(problem.key, placeholders)}</li>`;
          })}
        </ul>
      </div>
    `;
  }

  // -- editing ------------------------------------------------------------------------------------

  private _edit(week: Week): void {
    this._week = week;
    this._saved = false;
    this._error = undefined;
  }

  private _editDay(day: number, change: (entries: Entry[]) => Entry[], sort = true): void {
    const week = this._week!;
    const days = [...week.days];
    const changed = change([...days[day]]);
    days[day] = sort ? sortEntries(changed) : changed;
    this._edit({ ...week, days });
  }

  private _openDay(day: number | undefined): void {
    this._day = day;
    this._copyTargets = new Set();
  }

  private _setTime(day: number, index: number, value: string): void {
    this._editDay(day, (entries) => {
      entries[index] = { ...entries[index], time: parseTimeValue(value) };
      return entries;
    });
  }

  private _setTemperature(day: number, index: number, field: "temp" | "low" | "high", value: string): void {
    const number = value.trim() === "" ? NaN : Number(value);
    this._editDay(day, (entries) => {
      entries[index] = { ...entries[index], [field]: toCelsius(number, this._unit) };
      return entries;
    });
  }

  private _remove(day: number, index: number): void {
    this._editDay(day, (entries) => entries.filter((_, i) => i !== index));
  }

  private _add(day: number): void {
    const week = this._week!;
    const setpoints = week.days[day].filter((e) => !e.continuation && Number.isFinite(e.time));
    const last = setpoints[setpoints.length - 1];
    const time = last ? Math.min(last.time + 3600, 23 * 3600) : 12 * 3600;
    const celsius = last ? (last.type === "RANGE" ? last.low! : last.temp!) : 20;
    this._editDay(day, (entries) => [
      ...entries,
      makeEntry(week.mode, time, Number.isFinite(celsius) ? celsius : 20),
    ]);
  }

  private _toggleCopy(day: number, on: boolean): void {
    const targets = new Set(this._copyTargets);
    if (on) targets.add(day);
    else targets.delete(day);
    this._copyTargets = targets;
  }

  private _selectAllCopy(from: number): void {
    this._copyTargets = new Set(Array.from({ length: DAYS }, (_, day) => day).filter((d) => d !== from));
  }

  private _copy(from: number): void {
    this._edit(copyDay(this._week!, from, this._copyTargets));
    this._copyTargets = new Set();
  }

  private _discard(): void {
    this._week = this._base;
    this._theirs = undefined;
    this._error = undefined;
  }

  private _loadTheirs(): void {
    this._discard();
  }

  private async _save(): Promise<void> {
    const week = this._week;
    const entity = this._config?.entity;
    if (!week || !entity || !this.hass || validateWeek(week, this._unit).length) return;
    const data: Record<string, unknown> = { schedule: serializeWeek(week) };
    if (this._message?.learning) data.turn_off_learning = this._turnOffLearning;
    this._saving = true;
    this._error = undefined;
    try {
      // One action, one push: the integration checks the schedule again and writes it whole.
      await this.hass.callService(DOMAIN, "set_schedule", data, { entity_id: entity });
      this._base = week;
      this._theirs = undefined;
      this._saved = true;
    } catch (err) {
      this._error = this._describe(err as HassError);
    } finally {
      this._saving = false;
    }
  }

  private _describe(err: HassError): string {
    if (err?.code === "not_a_thermostat") {
      return this._t("error_not_a_thermostat", { entity: this._config?.entity ?? "" });
    }
    if (err?.code === "not_loaded") return this._t("error_not_loaded");
    // Home Assistant's own refusals arrive translated (the integration's validation errors).
    return err?.message || this._t("error_unknown", { message: String(err?.code ?? err) });
  }

  static styles = css`
    :host {
      --tc-heat: var(--state-climate-heat-color, #ff8100);
      --tc-cool: var(--state-climate-cool-color, #2b9af9);
      --tc-range: var(--state-climate-heat_cool-color, #008000);
      --tc-radius: var(--ha-card-border-radius, 12px);
      display: block;
    }
    ha-card {
      display: block;
      overflow: hidden;
      color: var(--primary-text-color);
      background: var(--ha-card-background, var(--card-background-color, #fff));
      border-radius: var(--tc-radius);
    }
    .header {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      justify-content: space-between;
      gap: 8px;
      padding: 16px 16px 0;
    }
    .title {
      margin: 0;
      font-size: var(--ha-card-header-font-size, 1.25rem);
      font-weight: 400;
      line-height: 1.4;
    }
    .content {
      padding: 8px 16px 16px;
    }
    .note {
      color: var(--secondary-text-color);
    }
    select,
    input[type="time"],
    input[type="number"] {
      font: inherit;
      color: var(--primary-text-color);
      background: var(--input-fill-color, var(--secondary-background-color, transparent));
      border: 1px solid var(--divider-color, #ccc);
      border-radius: 6px;
      padding: 6px 8px;
      min-height: 36px;
      box-sizing: border-box;
    }
    input[type="number"] {
      width: 5.5em;
    }
    button {
      font: inherit;
      cursor: pointer;
      color: var(--primary-color);
      background: transparent;
      border: 1px solid var(--divider-color, #ccc);
      border-radius: 18px;
      padding: 6px 14px;
      min-height: 36px;
      display: inline-flex;
      align-items: center;
      gap: 4px;
    }
    button.primary {
      color: var(--text-primary-color, #fff);
      background: var(--primary-color);
      border-color: var(--primary-color);
    }
    button:disabled {
      cursor: default;
      opacity: 0.5;
    }
    button.link {
      border: none;
      padding: 4px 6px;
    }
    button svg,
    .icon-button svg {
      width: 20px;
      height: 20px;
      fill: currentColor;
    }
    .icon-button {
      border: none;
      border-radius: 50%;
      padding: 8px;
      color: var(--secondary-text-color);
    }
    .week {
      display: flex;
      flex-direction: column;
      gap: 4px;
      margin: 8px 0;
    }
    .day-line {
      display: grid;
      grid-template-columns: 3.2em 1fr;
      align-items: center;
      gap: 8px;
      width: 100%;
      padding: 2px 0;
      border: none;
      border-radius: 6px;
      color: var(--primary-text-color);
      text-align: start;
    }
    .day-line:hover,
    .day.open .day-line {
      background: var(--secondary-background-color, rgba(127, 127, 127, 0.1));
    }
    .day-name {
      font-weight: 500;
      padding-inline-start: 4px;
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
    }
    .line {
      position: relative;
      height: 28px;
      border-radius: 6px;
      overflow: hidden;
      background: var(--divider-color, #e0e0e0);
    }
    .segment {
      position: absolute;
      top: 0;
      bottom: 0;
      box-sizing: border-box;
      border-inline-start: 2px solid var(--card-background-color, #fff);
      padding: 0 4px;
      font-size: 0.75rem;
      line-height: 28px;
      white-space: nowrap;
      overflow: hidden;
      color: var(--primary-text-color);
    }
    .segment .label[hidden] {
      display: none;
    }
    .segment.heat {
      --tc-color: var(--tc-heat);
    }
    .segment.cool {
      --tc-color: var(--tc-cool);
    }
    .segment.range {
      --tc-color: var(--tc-range);
    }
    .segment {
      background: var(--tc-color);
      background: color-mix(
        in srgb,
        var(--tc-color) var(--tc-share, 100%),
        var(--card-background-color, #fff)
      );
    }
    .segment.carried {
      border-inline-start: none;
      font-style: italic;
    }
    .hours {
      display: grid;
      grid-template-columns: 3.2em 1fr;
      gap: 8px;
    }
    .scale {
      position: relative;
      height: 1.2em;
      font-size: 0.7rem;
      color: var(--secondary-text-color);
    }
    .scale span {
      position: absolute;
      transform: translateX(-50%);
      white-space: nowrap;
    }
    .scale span:first-child {
      transform: none;
    }
    .scale span:last-child {
      transform: translateX(-100%);
    }
    .editor {
      margin: 4px 0 8px;
      padding: 8px 12px 12px;
      border: 1px solid var(--divider-color, #ccc);
      border-radius: 8px;
    }
    .editor-head {
      display: flex;
      align-items: center;
      justify-content: space-between;
    }
    .editor h3 {
      margin: 0;
      font-size: 1rem;
      font-weight: 500;
    }
    .entries {
      list-style: none;
      margin: 0;
      padding: 0;
    }
    .entry {
      display: flex;
      flex-wrap: wrap;
      align-items: flex-end;
      gap: 8px 12px;
      padding: 8px 0 8px 8px;
      border-inline-start: 4px solid var(--tc-heat);
      margin-bottom: 6px;
    }
    .entry.cool {
      border-color: var(--tc-cool);
    }
    .entry.range {
      border-color: var(--tc-range);
    }
    .entry.carried {
      border-color: var(--divider-color, #ccc);
      color: var(--secondary-text-color);
      align-items: center;
    }
    .hint {
      font-size: 0.85rem;
      font-style: italic;
    }
    .field {
      display: flex;
      flex-direction: column;
      gap: 2px;
      font-size: 0.8rem;
      color: var(--secondary-text-color);
    }
    .with-unit {
      display: inline-flex;
      align-items: center;
      gap: 4px;
      color: var(--primary-text-color);
      font-size: 1rem;
    }
    .copy {
      margin: 12px 0 0;
      border: none;
      padding: 0;
      display: flex;
      flex-direction: column;
      gap: 8px;
      align-items: flex-start;
    }
    .copy legend {
      padding: 0;
      margin-bottom: 6px;
      color: var(--secondary-text-color);
      font-size: 0.9rem;
    }
    .chips {
      display: flex;
      flex-wrap: wrap;
      gap: 6px;
    }
    .chip {
      display: inline-flex;
      align-items: center;
      gap: 2px;
      padding: 2px 8px 2px 2px;
      border: 1px solid var(--divider-color, #ccc);
      border-radius: 16px;
    }
    .message {
      border-radius: 8px;
      padding: 8px 12px;
      margin: 8px 0;
    }
    .message p {
      margin: 0 0 4px;
    }
    .message ul {
      margin: 0;
      padding-inline-start: 20px;
    }
    .message.error {
      color: var(--error-color, #db4437);
      background: rgba(var(--rgb-error-color, 219, 68, 55), 0.1);
    }
    .message.warning {
      background: rgba(var(--rgb-warning-color, 255, 166, 0), 0.15);
    }
    .message.ok {
      background: rgba(var(--rgb-success-color, 67, 160, 71), 0.12);
    }
    .message.hold {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      justify-content: space-between;
      gap: 8px;
      border-inline-start: 4px solid var(--tc-heat);
      background: rgba(var(--rgb-primary-color, 3, 169, 244), 0.08);
    }
    .message.eco {
      border-inline-start-color: var(--state-climate-eco-color, #43a047);
    }
    .message.hold p {
      margin: 0;
    }
    .check {
      display: inline-flex;
      align-items: center;
      gap: 6px;
    }
    .actions {
      display: flex;
      flex-wrap: wrap;
      justify-content: flex-end;
      gap: 8px;
      margin-top: 8px;
    }
    .visually-hidden {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip: rect(0 0 0 0);
    }
  `;
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

function same(a: Week, b: Week): boolean {
  return canonical(serializeWeek(a)) === canonical(serializeWeek(b));
}

function icon(path: string): TemplateResult {
  return html`<svg viewBox="0 0 24 24" aria-hidden="true">${svg`<path d=${path}></path>`}</svg>`;
}

/** Home Assistant's icon button where the dashboard has defined it, else a plain button. */
function iconButton(path: string, label: string, action: () => void): TemplateResult {
  if (customElements.get("ha-icon-button")) {
    return html`<ha-icon-button .path=${path} .label=${label} @click=${action}></ha-icon-button>`;
  }
  return html`<button class="icon-button" aria-label=${label} title=${label} @click=${action}>
    ${icon(path)}
  </button>`;
}
