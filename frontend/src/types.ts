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
  locale?: { language: string; first_weekday?: string };
  config: { unit_system: { temperature: string } };
  /** Replaced when the theme (or dark mode) changes: the segments' text colours follow. */
  themes?: unknown;
  connection: {
    subscribeMessage<T>(
      callback: (message: T) => void,
      message: Record<string, unknown>,
    ): Promise<() => Promise<void>>;
  };
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
}
