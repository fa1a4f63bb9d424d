export const DOMAIN = "thermostat_cloud";
export const CARD_TYPE = "thermostat-cloud-schedule-card";
export const EDITOR_TYPE = "thermostat-cloud-schedule-card-editor";
export const HISTORY_CARD_TYPE = "thermostat-cloud-history-card";
export const HISTORY_EDITOR_TYPE = "thermostat-cloud-history-card-editor";
export const WS_SUBSCRIBE_SCHEDULE = `${DOMAIN}/schedule/subscribe`;

/** What `thermostat_cloud/schedule/subscribe` sends, now and on every change. */
export interface ScheduleMessage {
  schedule: import("./schedule").StoredSchedule | null;
  learning: boolean | null;
  /** The thermostat's hold (Celsius; `until` ISO 8601), null without one. */
  hold?: HoldMessage | null;
  /** Set while the thermostat keeps its eco temperatures (Celsius): the home away, or its eco. */
  eco?: EcoMessage | null;
  /** The home's planned arrival (ISO 8601): when, and when the home leaves eco for it. */
  arrival?: ArrivalMessage | null;
}

/** Someone is coming home: the house is at the schedule's temperature by `at`. */
export interface ArrivalMessage {
  at: string;
  start: string;
}

/** What the house keeps instead of the schedule and any hold. */
export interface EcoMessage {
  away: boolean;
  low: number | null;
  high: number | null;
}

/** A hold: a temperature or a low and a high, kept across the schedule until `until`. */
export interface HoldMessage {
  until: string;
  target: number | null;
  low: number | null;
  high: number | null;
}
