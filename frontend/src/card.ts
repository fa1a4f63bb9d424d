/**
 * The schedule card: a thermostat's week, read live from the integration, edited here and saved
 * whole with one action. The week, the day editor and the hold banner are drawn by their own
 * modules; this element keeps the state and talks to Home Assistant.
 */
import { html, nothing, type PropertyValues, type TemplateResult } from "lit";

import { ThermostatCloudCard, states } from "./card-base";
import {
  CARD_TYPE,
  DOMAIN,
  EDITOR_TYPE,
  WS_SUBSCRIBE_SCHEDULE,
  type ScheduleMessage,
} from "./const";
import { renderDayEditor } from "./day-editor";
import { renderArrival } from "./arrival-line";
import { renderHoldBanner } from "./hold-banner";
import { renderRoomNote } from "./room-note";
import {
  canonical,
  dayOrder,
  firstWeekday,
  newWeek,
  parseSchedule,
  serializeWeek,
  validateWeek,
  weekdayNames,
  type Problem,
  type Week,
} from "./schedule";
import { scheduleCardStyles } from "./schedule-card-styles";
import { ScheduleText } from "./schedule-text";
import type { HassError, HomeAssistant } from "./types";
import { fitLabels, renderModeMenu, renderWeek } from "./week-view";

export class ThermostatCloudScheduleCard extends ThermostatCloudCard {
  static properties = states(
    "_message",
    "_base",
    "_week",
    "_theirs",
    "_day",
    "_copyTargets",
    "_turnOffLearning",
    "_saving",
    "_saved",
    "_error",
  );

  protected static cardType = CARD_TYPE;
  protected static editorType = EDITOR_TYPE;

  static styles = scheduleCardStyles;

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

  getCardSize(): number {
    return 9;
  }

  connectedCallback(): void {
    super.connectedCallback();
    this._subscribe();
    this._resized ??= new ResizeObserver(() => fitLabels(this.renderRoot));
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
    fitLabels(this.renderRoot);
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
      .catch(async (err: HassError) => {
        this._error = await this._describe(err);
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

  /** Words, temperatures and times in the user's language and unit, as `hass` has them now. */
  private get _text(): ScheduleText {
    return new ScheduleText(this.hass);
  }

  protected render(): TemplateResult {
    const config = this._config;
    const entity = config?.entity;
    const stateObj = entity ? this.hass?.states[entity] : undefined;
    const name = stateObj?.attributes.friendly_name ?? entity ?? "";
    const text = this._text;
    const title = config?.title || (entity ? text.t("title", { name }) : text.t("card_name"));
    return html`
      <ha-card>
        <div class="header">
          <h2 class="title">${title}</h2>
          ${this._week ? renderModeMenu(text, this._week, (week) => this._edit(week)) : nothing}
        </div>
        <div class="content">${this._renderBody(text, entity)}</div>
      </ha-card>
    `;
  }

  private _renderBody(text: ScheduleText, entity: string | undefined): TemplateResult {
    if (!entity) return html`<p class="note">${text.t("no_entity")}</p>`;
    if (this._error && !this._message) {
      return html`<p class="message error" role="alert">${this._error}</p>`;
    }
    if (!this._message) return html`<p class="note">${text.t("loading")}</p>`;
    const week = this._week;
    if (!week) {
      return html`
        <p class="note">${text.t("no_schedule")}</p>
        <div class="actions">
          <button class="primary" @click=${() => (this._week = newWeek("HEAT"))}>
            ${text.t("create_schedule")}
          </button>
        </div>
      `;
    }
    const problems = validateWeek(week, text.unit);
    const names = weekdayNames(text.language, "long");
    const order = dayOrder(firstWeekday(this.hass?.locale?.first_weekday, text.language));
    return html`
      ${this._message.learning
        ? html`<div class="message warning" role="note">
            <p>${text.t("learning_on")}</p>
            <label class="check">
              <input
                type="checkbox"
                .checked=${this._turnOffLearning}
                @change=${(ev: Event) =>
                  (this._turnOffLearning = (ev.target as HTMLInputElement).checked)}
              />
              ${text.t("turn_off_learning")}
            </label>
          </div>`
        : nothing}
      ${renderHoldBanner(text, this._message, () => this._resumeSchedule())}
      ${renderArrival(text, this._message.arrival)}
      ${renderRoomNote(text, this.hass, entity)}
      ${this._theirs
        ? html`<div class="message warning" role="status">
            <p>${text.t("changed_on_thermostat")}</p>
            <button @click=${this._loadTheirs}>${text.t("load_theirs")}</button>
          </div>`
        : nothing}
      ${renderWeek({
        text,
        week,
        order,
        names,
        shortNames: weekdayNames(text.language, "short"),
        openDay: this._day,
        toggleDay: (day) => this._openDay(day),
        dayEditor: (day) =>
          renderDayEditor({
            text,
            week,
            day,
            names,
            order,
            copyTargets: this._copyTargets,
            editWeek: (change) => this._edit(change(this._week!)),
            setCopyTargets: (days) => (this._copyTargets = days),
            close: () => this._openDay(undefined),
          }),
      })}
      ${problems.length ? this._renderProblems(text, problems, names) : nothing}
      ${this._error ? html`<p class="message error" role="alert">${this._error}</p>` : nothing}
      ${this._saved && !this._dirty ? html`<p class="message ok" role="status">${text.t("saved")}</p>` : nothing}
      <div class="actions">
        <button ?disabled=${!this._dirty || this._saving} @click=${this._discard}>
          ${text.t("discard")}
        </button>
        <button
          class="primary"
          ?disabled=${!this._dirty || this._saving || problems.length > 0}
          @click=${this._save}
        >
          ${this._saving ? text.t("saving") : text.t("save")}
        </button>
      </div>
    `;
  }

  private _renderProblems(text: ScheduleText, problems: Problem[], names: string[]): TemplateResult {
    return html`
      <div class="message error" role="alert">
        <p>${text.t("problems")}</p>
        <ul>
          ${problems.map((problem) => {
            const placeholders: Record<string, string | number> = { day: names[problem.day] };
            if ("time" in problem && Number.isFinite(problem.time)) {
              placeholders.time = text.time(problem.time);
            }
            if (problem.key === "out_of_range") {
              placeholders.min = `${problem.min} ${text.unit}`;
              placeholders.max = `${problem.max} ${text.unit}`;
            }
            return html`<li>${text.t(problem.key, placeholders)}</li>`;
          })}
        </ul>
      </div>
    `;
  }

  // -- editing and saving ---------------------------------------------------------------------------

  private _edit(week: Week): void {
    this._week = week;
    this._saved = false;
    this._error = undefined;
  }

  private _openDay(day: number | undefined): void {
    this._day = day;
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
    if (!week || !entity || !this.hass || validateWeek(week, this._text.unit).length) return;
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
      this._error = await this._describe(err as HassError);
    } finally {
      this._saving = false;
    }
  }

  private async _resumeSchedule(): Promise<void> {
    const entity = this._config?.entity;
    if (!this.hass || !entity) return;
    this._error = undefined;
    try {
      await this.hass.callService(DOMAIN, "resume_schedule", {}, { entity_id: entity });
    } catch (err) {
      this._error = await this._describe(err as HassError);
    }
  }

  private async _describe(err: HassError): Promise<string> {
    if (err?.code === "not_a_thermostat") {
      return this._text.t("error_not_a_thermostat", { entity: this._config?.entity ?? "" });
    }
    if (err?.code === "not_loaded") return this._text.t("error_not_loaded");
    if (err?.translation_key) return this.refusal(err); // the integration's, by its key
    return err?.message || this._text.t("error_unknown", { message: String(err?.code ?? err) });
  }
}

function same(a: Week, b: Week): boolean {
  return canonical(serializeWeek(a)) === canonical(serializeWeek(b));
}
