/**
 * The banner over the week when the house keeps something other than the schedule: a hold
 * (with the way back to the schedule), or away and eco, which outrank a hold.
 */
import { html, nothing, type TemplateResult } from "lit";

import type { EcoMessage, HoldMessage, ScheduleMessage } from "./const";
import type { ScheduleText } from "./schedule-text";

/** Eco or away where the house keeps it, else the hold, else nothing. */
export function renderHoldBanner(
  text: ScheduleText,
  message: ScheduleMessage,
  resumeSchedule: () => void,
): TemplateResult | typeof nothing {
  if (message.eco) return renderEco(text, message.eco);
  return message.hold ? renderHold(text, message.hold, resumeSchedule) : nothing;
}

/** The hold the server keeps over the schedule, and the way back to the schedule now. */
function renderHold(text: ScheduleText, hold: HoldMessage, resumeSchedule: () => void): TemplateResult {
  const temperature =
    hold.target !== null
      ? text.temperature(hold.target)
      : `${text.temperature(hold.low ?? undefined)} – ${text.temperature(hold.high ?? undefined)}`;
  let until = hold.until;
  try {
    until = new Date(hold.until).toLocaleString(text.language, {
      weekday: "short",
      hour: "numeric",
      minute: "2-digit",
    });
  } catch {
    // An unknown language: the ISO time as sent.
  }
  return html`<div class="message hold" role="status">
    <p>${text.t("hold", { temperature, until })}</p>
    <button @click=${resumeSchedule}>${text.t("resume_schedule")}</button>
  </div>`;
}

/** Away or eco: the range the house keeps now, in place of the schedule (and of a hold). */
function renderEco(text: ScheduleText, eco: EcoMessage): TemplateResult {
  const range = {
    low: text.temperature(eco.low ?? undefined),
    high: text.temperature(eco.high ?? undefined),
  };
  return html`<div class="message hold eco" role="status">
    <p>${text.t(eco.away ? "away" : "eco", range)}</p>
  </div>`;
}
