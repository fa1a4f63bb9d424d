import { html, nothing, type PropertyValues, type TemplateResult } from "lit";

import { ThermostatCloudCard, states } from "./card-base";
import { DOMAIN, HISTORY_CARD_TYPE, HISTORY_EDITOR_TYPE } from "./const";
import { ThermostatCloudScheduleCardEditor } from "./editor";
import {
  HISTORY_DAYS,
  MIN_DAYS_WITH_DATA,
  dayBefore,
  lastDays,
  mainReason,
  scaleHours,
  type EnergyReport,
  type ReportDay,
} from "./history";
import { historyCardStyles } from "./history-card-styles";
import { reasonIcon, renderDayDetails } from "./history-details";
import { HistoryText } from "./history-text";
import type { HassError, HomeAssistant } from "./types";

/** The last ten days of a thermostat as bars of heating and cooling hours, each with its reason. */
export class ThermostatCloudHistoryCard extends ThermostatCloudCard {
  static properties = states("_days", "_selected", "_error");

  protected static cardType = HISTORY_CARD_TYPE;
  protected static editorType = HISTORY_EDITOR_TYPE;

  static styles = historyCardStyles;

  /** Undefined until the report has come. */
  private _days?: ReportDay[];
  private _selected?: string;
  private _error?: string;
  private _loadedFor?: { entity: string; connection: unknown };

  getCardSize(): number {
    return 5;
  }

  connectedCallback(): void {
    super.connectedCallback();
    this._load();
  }

  /** Home Assistant sets `hass` on every state change anywhere: the report is read once. */
  protected shouldUpdate(changed: PropertyValues): boolean {
    if (changed.size !== 1 || !changed.has("hass")) return true;
    const old = changed.get("hass") as HomeAssistant | undefined;
    const hass = this.hass;
    return !old || !hass || old.connection !== hass.connection || old.language !== hass.language;
  }

  protected updated(changed: PropertyValues): void {
    if (changed.has("hass") || changed.has("_config")) this._load();
  }

  // -- the report --------------------------------------------------------------------------------

  private async _report(entity: string, date?: string): Promise<EnergyReport> {
    const answer = await this.hass!.callWS<{ response: EnergyReport }>({
      type: "call_service",
      domain: DOMAIN,
      service: "get_energy_report",
      service_data: { entity_id: entity, period: "month", ...(date ? { date } : {}) },
      return_response: true,
    });
    return answer.response;
  }

  /** This month's days up to today (Home Assistant's), and last month's when they are too few. */
  private async _load(): Promise<void> {
    const entity = this._config?.entity;
    const connection = this.hass?.connection;
    if (!this.isConnected || !entity || !connection) return;
    const current = this._loadedFor;
    if (current && current.entity === entity && current.connection === connection) return;
    this._loadedFor = { entity, connection };
    this._days = undefined;
    this._selected = undefined;
    this._error = undefined;
    try {
      const reports = [await this._report(entity)];
      if (lastDays(reports, entity).length < HISTORY_DAYS) {
        reports.unshift(await this._report(entity, dayBefore(reports[0].start)));
      }
      if (this._loadedFor?.entity !== entity) return;
      this._days = lastDays(reports, entity);
    } catch (err) {
      if (this._loadedFor?.entity !== entity) return;
      const message = await this.refusal(err as HassError);
      if (this._loadedFor?.entity !== entity) return;
      this._error = this._text.t("history_error", { message });
    }
  }



  // -- what the user sees ----------------------------------------------------------------------------

  private get _text(): HistoryText {
    return new HistoryText(this.hass);
  }

  protected render(): TemplateResult {
    const config = this._config;
    const entity = config?.entity;
    const name = (entity && this.hass?.states[entity]?.attributes.friendly_name) || entity || "";
    const text = this._text;
    const title =
      config?.title || (entity ? text.t("history_title", { name }) : text.t("history_card_name"));
    return html`
      <ha-card>
        <div class="header"><h2 class="title">${title}</h2></div>
        <div class="content">${this._renderBody(text, entity)}</div>
      </ha-card>
    `;
  }

  private _renderBody(text: HistoryText, entity: string | undefined): TemplateResult {
    if (!entity) return html`<p class="note">${text.t("no_entity")}</p>`;
    if (this._error) return html`<p class="message error" role="alert">${this._error}</p>`;
    const days = this._days;
    if (!days) return html`<p class="note">${text.t("history_loading")}</p>`;
    if (days.filter((day) => day.has_data).length < MIN_DAYS_WITH_DATA) {
      return html`<p class="note empty">${text.t("history_empty")}</p>`;
    }
    const top = scaleHours(days);
    const selected = days.find((day) => day.date === this._selected);
    return html`
      <div class="legend">
        <span class="key heating"></span>${text.t("history_heating")}
        <span class="key cooling"></span>${text.t("history_cooling")}
        <span class="top">${text.hours(top)}</span>
      </div>
      <div class="bars" role="list">${days.map((day) => this._renderBar(text, day, top))}</div>
      ${selected
        ? renderDayDetails(text, selected, () => (this._selected = undefined))
        : nothing}
    `;
  }

  private _renderBar(text: HistoryText, day: ReportDay, top: number): TemplateResult {
    const reason = mainReason(day);
    const open = day.date === this._selected;
    const label = text.t("history_bar", {
      date: text.date(day.date, { weekday: "long", day: "numeric", month: "long" }),
      heating: text.hours(day.heating_hours),
      cooling: text.hours(day.cooling_hours),
    });
    const reasonText = reason ? text.t(`reason_${reason}`) : "";
    return html`
      <div class="day" role="listitem">
        <button
          class="bar ${open ? "open" : ""}"
          data-date=${day.date}
          aria-expanded=${open ? "true" : "false"}
          aria-label=${reasonText ? `${label}. ${reasonText}` : label}
          title=${reasonText ? `${label}. ${reasonText}` : label}
          @click=${() => (this._selected = open ? undefined : day.date)}
        >
          <span class="plot">
            <span class="segment cooling" style="height:${(day.cooling_hours / top) * 100}%"></span>
            <span class="segment heating" style="height:${(day.heating_hours / top) * 100}%"></span>
          </span>
          <span class="reason">${reason ? reasonIcon(reason) : nothing}</span>
          <span class="weekday">${text.date(day.date, { weekday: "short" })}</span>
          <span class="date">${text.date(day.date, { day: "numeric" })}</span>
        </button>
      </div>
    `;
  }
}

/** The same editor as the schedule card's (a thermostat and a title), under the card's own name. */
export class ThermostatCloudHistoryCardEditor extends ThermostatCloudScheduleCardEditor {}
