import { LitElement, type PropertyDeclarations } from "lit";

import { DOMAIN } from "./const";
import { localize, type StringKey } from "./localize";
import type { CardConfig, HassError, HomeAssistant } from "./types";

/** A card's words in the user's language; each card's own kind adds its numbers and dates. */
export class CardText {
  /** The language numbers, dates and times are written in: the user's profile, else Home Assistant's. */
  readonly language: string;

  constructor(protected readonly hass: HomeAssistant | undefined) {
    this.language = hass?.locale?.language ?? hass?.language ?? "en";
  }

  t(key: StringKey, placeholders?: Record<string, string | number>): string {
    return localize(this.hass?.language, key, placeholders);
  }
}

/** Lit's declarations for an element's own state: each renders the element when it changes. */
export function states(...names: string[]): PropertyDeclarations {
  return Object.fromEntries(names.map((name) => [name, { state: true }]));
}

/**
 * What both cards share: a thermostat and a title from the dashboard, what the card picker
 * and the card editor ask of them, the room they take in a section.
 */
export abstract class ThermostatCloudCard extends LitElement {
  // Lit adds each subclass's own `properties` to these.
  static properties: PropertyDeclarations = { hass: { attribute: false }, ...states("_config") };

  /** The names index.ts defines the card and its editor under. */
  protected static cardType: string;
  protected static editorType: string;

  hass?: HomeAssistant;
  protected _config?: CardConfig;

  // Home Assistant calls these two on the card's class, which is `this`.
  static getConfigElement(this: typeof ThermostatCloudCard): HTMLElement {
    return document.createElement(this.editorType);
  }

  /** A card just added from the picker: the first thermostat, so its preview shows one. */
  static getStubConfig(this: typeof ThermostatCloudCard, hass: HomeAssistant): CardConfig {
    const ours = Object.values(hass.entities ?? {}).find(
      (entry) => entry.platform === DOMAIN && entry.entity_id.startsWith("climate."),
    );
    return { type: `custom:${this.cardType}`, entity: ours?.entity_id ?? "" };
  }

  /**
   * An action's refusal in the user's language. Home Assistant's message is English: the
   * integration's own text is looked up by the refusal's translation key and filled with its
   * placeholders; the message only when there is none.
   */
  protected async refusal(error: HassError): Promise<string> {
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

  setConfig(config: CardConfig): void {
    if (!config || typeof config !== "object") throw new Error("Invalid configuration");
    if (config.entity && !config.entity.startsWith("climate.")) {
      throw new Error("entity must be a climate entity of Thermostat Cloud");
    }
    this._config = config;
  }

  getGridOptions(): Record<string, unknown> {
    return { columns: 12, min_columns: 6, rows: "auto" };
  }
}
