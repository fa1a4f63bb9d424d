/**
 * The line over the week that says which room sensors are in control, when the thermostat
 * follows a room: the climate entity's `followed_sensors` (empty when it fell back to its own
 * reading; absent when it follows none).
 */
import { html, nothing, type TemplateResult } from "lit";

import type { ScheduleText } from "./schedule-text";
import type { HomeAssistant } from "./types";

export function renderRoomNote(
  text: ScheduleText,
  hass: HomeAssistant | undefined,
  entity: string,
): TemplateResult | typeof nothing {
  const sensors = hass?.states[entity]?.attributes.followed_sensors;
  if (!Array.isArray(sensors)) return nothing;
  if (!sensors.length) {
    return html`<div class="message warning" role="status"><p>${text.t("room_fallen_back")}</p></div>`;
  }
  const names = sensors
    .map((id) => String(hass?.states[String(id)]?.attributes.friendly_name ?? id))
    .join(", ");
  return html`<div class="message room" role="status">
    <p>${text.t("room_following", { sensors: names })}</p>
  </div>`;
}
