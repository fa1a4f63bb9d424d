import { LitElement, html, nothing, type TemplateResult } from "lit";

import { DOMAIN } from "./const";
import { localize, type StringKey } from "./localize";
import type { CardConfig, HomeAssistant } from "./types";

/** ha-form's schema: the thermostat (only this integration's climate entities) and a title. */
const SCHEMA = [
  {
    name: "entity",
    required: true,
    selector: { entity: { filter: { integration: DOMAIN, domain: "climate" } } },
  },
  { name: "title", selector: { text: {} } },
] as const;

const LABELS: Record<string, StringKey> = { entity: "editor_entity", title: "editor_title" };

/** The card's visual editor in the dashboard's card dialog. */
export class ThermostatCloudScheduleCardEditor extends LitElement {
  static properties = {
    hass: { attribute: false },
    _config: { state: true },
  };

  hass?: HomeAssistant;
  private _config?: CardConfig;

  setConfig(config: CardConfig): void {
    this._config = config;
  }

  protected render(): TemplateResult | typeof nothing {
    if (!this.hass || !this._config) return nothing;
    return html`
      <ha-form
        .hass=${this.hass}
        .data=${this._config}
        .schema=${SCHEMA}
        .computeLabel=${(field: { name: string }) =>
          localize(this.hass?.language, LABELS[field.name] ?? "editor_entity")}
        @value-changed=${this._valueChanged}
      ></ha-form>
    `;
  }

  private _valueChanged(ev: CustomEvent<{ value: Partial<CardConfig> }>): void {
    ev.stopPropagation();
    const config = { ...this._config!, ...ev.detail.value };
    if (!config.title) delete config.title;
    this._config = config;
    this.dispatchEvent(
      new CustomEvent("config-changed", { detail: { config }, bubbles: true, composed: true }),
    );
  }
}
