/**
 * The line over the week while the home prepares for someone's arrival: when it will be at the
 * schedule's temperature, and when the heating starts for it (the server plans both from
 * what it learned of the house).
 */
import { html, nothing, type TemplateResult } from "lit";

import type { ArrivalMessage } from "./const";
import type { ScheduleText } from "./schedule-text";

/** "Warm by 18:00, heating from 16:40", in the user's language and time format; else nothing. */
export function renderArrival(
  text: ScheduleText,
  arrival: ArrivalMessage | null | undefined,
): TemplateResult | typeof nothing {
  if (!arrival) return nothing;
  const times = { arrival: text.clock(arrival.at), start: text.clock(arrival.start) };
  return html`<div class="message hold arrival" role="status">
    <p>${text.t("arrival", times)}</p>
  </div>`;
}
