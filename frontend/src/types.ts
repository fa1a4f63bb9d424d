/** The parts of Home Assistant's frontend objects the card uses (they are public to cards). */

export interface HassEntity {
  entity_id: string;
  state: string;
  attributes: { friendly_name?: string; [name: string]: unknown };
}

export interface HassEntityRegistryDisplayEntry {
  entity_id: string;
  platform?: string;
}

export interface HomeAssistant {
  states: Record<string, HassEntity>;
  entities?: Record<string, HassEntityRegistryDisplayEntry>;
  language: string;
  locale?: { language: string; first_weekday?: string; time_format?: string };
  config: { unit_system: { temperature: string }; time_zone?: string };
  /** Replaced when the theme (or dark mode) changes: the segments' text colours follow. */
  themes?: unknown;
  connection: {
    subscribeMessage<T>(
      callback: (message: T) => void,
      message: Record<string, unknown>,
    ): Promise<() => Promise<void>>;
  };
  /** A websocket command's result (the history card's `call_service` with `return_response`). */
  callWS<T>(message: Record<string, unknown>): Promise<T>;
  /** The integration's translations of a category, as the frontend loads them (2023.x+). */
  loadBackendTranslation?(
    category: string,
    integration: string,
  ): Promise<(key: string, values?: Record<string, unknown>) => string>;
  callService(
    domain: string,
    service: string,
    data?: Record<string, unknown>,
    target?: Record<string, unknown>,
  ): Promise<unknown>;
}

export interface CardConfig {
  type: string;
  entity?: string;
  title?: string;
}

/** An error of Home Assistant's websocket API (`callService`, `subscribeMessage`). */
export interface HassError {
  code?: string;
  message?: string;
  /** A translated refusal (HomeAssistantError with a translation key): the user's language. */
  translation_domain?: string;
  translation_key?: string;
  translation_placeholders?: Record<string, string>;
}
