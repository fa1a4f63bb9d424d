import { LitElement, css, html, nothing, svg, type PropertyValues, type TemplateResult } from "lit";
import {
  mdiAccountEdit,
  mdiCalendarEdit,
  mdiClose,
  mdiHomeExportOutline,
  mdiHomeImportOutline,
  mdiSnowflake,
  mdiWeatherSunny,
} from "@mdi/js";

import { firstThermostat } from "./card";
import { DOMAIN, HISTORY_CARD_TYPE, HISTORY_EDITOR_TYPE } from "./const";
import {
  HISTORY_DAYS,
  MIN_DAYS_WITH_DATA,
  changesBySource,
  dayBefore,
  equipmentRun,
  lastDays,
  mainReason,
  scaleHours,
  type EnergyReport,
  type Reason,
  type ReportDay,
} from "./history";
import { ThermostatCloudScheduleCardEditor } from "./editor";
import { localize, type StringKey } from "./localize";
import en from "./translations/en.json";
import type { CardConfig, HassError, HomeAssistant } from "./types";

const REASON_ICONS: Record<Reason, string> = {
  colder: mdiSnowflake,
  warmer: mdiWeatherSunny,
  adjusted: mdiAccountEdit,
  away_more: mdiHomeExportOutline,
  away_less: mdiHomeImportOutline,
  schedule: mdiCalendarEdit,
};

/** The last ten days of a thermostat as bars of heating and cooling hours, each with its reason. */
export class ThermostatCloudHistoryCard extends LitElement {
  static properties = {
    hass: { attribute: false },
    _config: { state: true },
    _days: { state: true },
    _selected: { state: true },
    _error: { state: true },
  };

  hass?: HomeAssistant;
  private _config?: CardConfig;
  /** Undefined until the report has come. */
  private _days?: ReportDay[];
  private _selected?: string;
  private _error?: string;
  private _loadedFor?: { entity: string; connection: unknown };

  static getConfigElement(): HTMLElement {
    return document.createElement(HISTORY_EDITOR_TYPE);
  }

  static getStubConfig(hass: HomeAssistant): CardConfig {
    return { type: `custom:${HISTORY_CARD_TYPE}`, entity: firstThermostat(hass) ?? "" };
  }

  setConfig(config: CardConfig): void {
    if (!config || typeof config !== "object") throw new Error("Invalid configuration");
    if (config.entity && !config.entity.startsWith("climate.")) {
      throw new Error("entity must be a climate entity of Thermostat Cloud");
    }
    this._config = config;
  }

  getCardSize(): number {
    return 5;
  }

  getGridOptions(): Record<string, unknown> {
    return { columns: 12, min_columns: 6, rows: "auto" };
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
      const message = await this._refusal(err as HassError);
      if (this._loadedFor?.entity !== entity) return;
      this._error = this._t("history_error", { message });
    }
  }

  /** The action's refusal in the user's language (its message is in Home Assistant's). */
  private async _refusal(error: HassError): Promise<string> {
    const { translation_domain: domain, translation_key: key } = error ?? {};
    if (domain && key && this.hass?.loadBackendTranslation) {
      try {
        const translate = await this.hass.loadBackendTranslation("exceptions", domain);
        const text = translate(
          `component.${domain}.exceptions.${key}.message`,
          error.translation_placeholders,
        );
        if (text) return text;
      } catch {
        // The message as sent, below.
      }
    }
    return error?.message || String(error?.code ?? error);
  }

  // -- what the user sees ----------------------------------------------------------------------------

  private get _language(): string {
    return this.hass?.locale?.language ?? this.hass?.language ?? "en";
  }

  private _t(key: StringKey, placeholders?: Record<string, string | number>): string {
    return localize(this.hass?.language, key, placeholders);
  }

  private _hours(hours: number): string {
    return this._t("history_hours", {
      hours: hours.toLocaleString(this._language, { maximumFractionDigits: 2 }),
    });
  }

  private _number(value: number): string {
    return value.toLocaleString(this._language, { maximumFractionDigits: 1 });
  }

  private _date(iso: string, options: Intl.DateTimeFormatOptions): string {
    const [year, month, day] = iso.split("-").map(Number);
    try {
      return new Date(Date.UTC(year, month - 1, day)).toLocaleDateString(this._language, {
        ...options,
        timeZone: "UTC",
      });
    } catch {
      return iso;
    }
  }

  protected render(): TemplateResult {
    const config = this._config;
    const entity = config?.entity;
    const name = (entity && this.hass?.states[entity]?.attributes.friendly_name) || entity || "";
    const title =
      config?.title || (entity ? this._t("history_title", { name }) : this._t("history_card_name"));
    return html`
      <ha-card>
        <div class="header"><h2 class="title">${title}</h2></div>
        <div class="content">${this._renderBody(entity)}</div>
      </ha-card>
    `;
  }

  private _renderBody(entity: string | undefined): TemplateResult {
    if (!entity) return html`<p class="note">${this._t("no_entity")}</p>`;
    if (this._error) return html`<p class="message error" role="alert">${this._error}</p>`;
    const days = this._days;
    if (!days) return html`<p class="note">${this._t("history_loading")}</p>`;
    if (days.filter((day) => day.has_data).length < MIN_DAYS_WITH_DATA) {
      return html`<p class="note empty">${this._t("history_empty")}</p>`;
    }
    const top = scaleHours(days);
    const selected = days.find((day) => day.date === this._selected);
    return html`
      <div class="legend">
        <span class="key heating"></span>${this._t("history_heating")}
        <span class="key cooling"></span>${this._t("history_cooling")}
        <span class="top">${this._hours(top)}</span>
      </div>
      <div class="bars" role="list">${days.map((day) => this._renderBar(day, top))}</div>
      ${selected ? this._renderDetails(selected) : nothing}
    `;
  }

  private _renderBar(day: ReportDay, top: number): TemplateResult {
    const reason = mainReason(day);
    const open = day.date === this._selected;
    const label = this._t("history_bar", {
      date: this._date(day.date, { weekday: "long", day: "numeric", month: "long" }),
      heating: this._hours(day.heating_hours),
      cooling: this._hours(day.cooling_hours),
    });
    const reasonText = reason ? this._t(`reason_${reason}`) : "";
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
          <span class="reason">${reason ? icon(REASON_ICONS[reason]) : nothing}</span>
          <span class="weekday">${this._date(day.date, { weekday: "short" })}</span>
          <span class="date">${this._date(day.date, { day: "numeric" })}</span>
        </button>
      </div>
    `;
  }

  private _renderDetails(day: ReportDay): TemplateResult {
    const reason = mainReason(day);
    const equipment = equipmentRun(day);
    const changes = changesBySource(day);
    const heatingDd = day.heating_degree_days;
    const coolingDd = day.cooling_degree_days;
    return html`
      <section class="details" aria-label=${this._date(day.date, { dateStyle: "full" })}>
        <div class="details-head">
          <h3>${this._date(day.date, { weekday: "long", day: "numeric", month: "long" })}</h3>
          <button
            class="icon-button"
            aria-label=${this._t("close_day")}
            title=${this._t("close_day")}
            @click=${() => (this._selected = undefined)}
          >
            ${icon(mdiClose)}
          </button>
        </div>
        <p class="why">
          ${reason
            ? html`${icon(REASON_ICONS[reason])} ${this._t(`reason_${reason}`)}`
            : this._t("history_usual_day")}
        </p>
        <dl>
          <dt>${this._t("history_runtime")}</dt>
          <dd>
            ${equipment.length
              ? html`<ul>
                  ${equipment.map(
                    ([name, hours]) =>
                      html`<li>${this._equipment(name)}: ${this._hours(hours)}</li>`,
                  )}
                </ul>`
              : this._t("history_nothing_ran")}
          </dd>
          <dt>${this._t("history_degree_days")}</dt>
          <dd>
            ${heatingDd === null || coolingDd === null
              ? this._t("history_no_weather")
              : this._t("history_degree_days_value", {
                  heating: this._number(heatingDd),
                  cooling: this._number(coolingDd),
                })}
          </dd>
          <dt>${this._t("history_eco_away")}</dt>
          <dd>
            ${this._t("history_eco_away_value", {
              eco: this._hours(day.eco_hours),
              away: this._hours(day.away_hours),
            })}
          </dd>
          <dt>${this._t("history_changes")}</dt>
          <dd>
            ${changes.length
              ? html`<ul>
                  ${changes.map(
                    ([source, count]) => html`<li>${this._source(source)}: ${count}</li>`,
                  )}
                </ul>`
              : this._t("history_no_changes")}
          </dd>
        </dl>
      </section>
    `;
  }

  private _equipment(name: string): string {
    return this._named(`equipment_${name}`, name);
  }

  private _source(source: string): string {
    return this._named(`source_${source}`, source);
  }

  /** A name from the strings; a name a newer integration sends and the card lacks, as sent. */
  private _named(key: string, fallback: string): string {
    return key in en ? this._t(key as StringKey) : fallback;
  }

  static styles = css`
    :host {
      --tc-heat: var(--state-climate-heat-color, #ff8100);
      --tc-cool: var(--state-climate-cool-color, #2b9af9);
      display: block;
    }
    ha-card {
      display: block;
      overflow: hidden;
      color: var(--primary-text-color);
      background: var(--ha-card-background, var(--card-background-color, #fff));
      border-radius: var(--ha-card-border-radius, 12px);
    }
    .header {
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
    /* The text in the theme's text colour: the error red on its tint is under 4.5:1. */
    .message.error {
      margin: 8px 0;
      border-radius: 8px;
      padding: 8px 12px;
      color: var(--primary-text-color);
      background: rgba(var(--rgb-error-color, 219, 68, 55), 0.1);
      border-inline-start: 4px solid var(--error-color, #db4437);
    }
    .legend {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: 4px 6px;
      font-size: 0.85rem;
      color: var(--primary-text-color);
    }
    .key {
      display: inline-block;
      width: 12px;
      height: 12px;
      border-radius: 3px;
      margin-inline-start: 6px;
    }
    .key:first-child {
      margin-inline-start: 0;
    }
    .key.heating,
    .segment.heating {
      background: var(--tc-heat);
    }
    .key.cooling,
    .segment.cooling {
      background: var(--tc-cool);
    }
    .top {
      margin-inline-start: auto;
      color: var(--secondary-text-color);
    }
    .bars {
      display: grid;
      grid-template-columns: repeat(${HISTORY_DAYS}, minmax(0, 1fr));
      gap: 4px;
      margin-top: 4px;
      border-top: 1px dashed var(--divider-color, #ccc);
    }
    .bar {
      display: flex;
      flex-direction: column;
      align-items: center;
      width: 100%;
      padding: 4px 0;
      font: inherit;
      color: var(--primary-text-color);
      background: transparent;
      border: none;
      border-radius: 8px;
      cursor: pointer;
    }
    .bar:hover,
    .bar.open {
      background: var(--secondary-background-color, rgba(127, 127, 127, 0.1));
    }
    .bar:focus-visible {
      outline: 2px solid var(--primary-color);
    }
    .plot {
      display: flex;
      flex-direction: column;
      justify-content: flex-end;
      width: 70%;
      max-width: 32px;
      height: 140px;
      border-bottom: 1px solid var(--divider-color, #ccc);
    }
    .segment {
      display: block;
      width: 100%;
    }
    .reason {
      height: 20px;
      margin-top: 4px;
      color: var(--secondary-text-color);
    }
    .reason svg,
    .why svg,
    .icon-button svg {
      width: 20px;
      height: 20px;
      fill: currentColor;
      vertical-align: middle;
    }
    .weekday,
    .date {
      font-size: 0.75rem;
      line-height: 1.3;
      white-space: nowrap;
    }
    .weekday {
      color: var(--secondary-text-color);
    }
    .bar:hover .weekday,
    .bar.open .weekday {
      color: var(--primary-text-color);
    }
    .details {
      margin-top: 8px;
      padding: 8px 12px 12px;
      border: 1px solid var(--divider-color, #ccc);
      border-radius: 8px;
    }
    .details-head {
      display: flex;
      align-items: center;
      justify-content: space-between;
    }
    .details h3 {
      margin: 0;
      font-size: 1rem;
      font-weight: 500;
    }
    .icon-button {
      display: inline-flex;
      padding: 8px;
      color: var(--secondary-text-color);
      background: transparent;
      border: none;
      border-radius: 50%;
      cursor: pointer;
    }
    .why {
      margin: 4px 0 8px;
    }
    dl {
      display: grid;
      grid-template-columns: minmax(6em, max-content) 1fr;
      gap: 6px 12px;
      margin: 0;
    }
    dt {
      color: var(--secondary-text-color);
    }
    dd {
      margin: 0;
    }
    dd ul {
      margin: 0;
      padding: 0;
      list-style: none;
    }
    @media (max-width: 420px) {
      dl {
        grid-template-columns: 1fr;
        gap: 2px;
      }
      dd {
        margin-bottom: 6px;
      }
    }
  `;
}

/** The same editor as the schedule card's (a thermostat and a title), under the card's own name. */
export class ThermostatCloudHistoryCardEditor extends ThermostatCloudScheduleCardEditor {}

function icon(path: string): TemplateResult {
  return html`<svg viewBox="0 0 24 24" aria-hidden="true">${svg`<path d=${path}></path>`}</svg>`;
}
