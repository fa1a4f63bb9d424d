/**
 * A day of the history card opened under the bars: why it ran as it did, what ran and how
 * long, the weather's degree days, eco and away, and who changed the thermostat.
 */
import { html, type TemplateResult } from "lit";
import {
  mdiAccountEdit,
  mdiCalendarEdit,
  mdiClose,
  mdiHomeExportOutline,
  mdiHomeImportOutline,
  mdiSnowflake,
  mdiWeatherSunny,
} from "@mdi/js";

import { changesBySource, equipmentRun, mainReason, type Reason, type ReportDay } from "./history";
import type { HistoryText } from "./history-text";
import { icon } from "./icons";

const REASON_ICONS: Record<Reason, string> = {
  colder: mdiSnowflake,
  warmer: mdiWeatherSunny,
  adjusted: mdiAccountEdit,
  away_more: mdiHomeExportOutline,
  away_less: mdiHomeImportOutline,
  schedule: mdiCalendarEdit,
};

/** The icon of a day's main reason, under its bar and in its details. */
export function reasonIcon(reason: Reason): TemplateResult {
  return icon(REASON_ICONS[reason]);
}

export function renderDayDetails(text: HistoryText, day: ReportDay, close: () => void): TemplateResult {
  const reason = mainReason(day);
  const equipment = equipmentRun(day);
  const changes = changesBySource(day);
  const heatingDd = day.heating_degree_days;
  const coolingDd = day.cooling_degree_days;
  return html`
    <section class="details" aria-label=${text.date(day.date, { dateStyle: "full" })}>
      <div class="details-head">
        <h3>${text.date(day.date, { weekday: "long", day: "numeric", month: "long" })}</h3>
        <button
          class="icon-button"
          aria-label=${text.t("close_day")}
          title=${text.t("close_day")}
          @click=${close}
        >
          ${icon(mdiClose)}
        </button>
      </div>
      <p class="why">
        ${reason
          ? html`${reasonIcon(reason)} ${text.t(`reason_${reason}`)}`
          : text.t("history_usual_day")}
      </p>
      <dl>
        <dt>${text.t("history_runtime")}</dt>
        <dd>
          ${equipment.length
            ? html`<ul>
                ${equipment.map(
                  ([name, hours]) => html`<li>${text.equipment(name)}: ${text.hours(hours)}</li>`,
                )}
              </ul>`
            : text.t("history_nothing_ran")}
        </dd>
        <dt>${text.t("history_degree_days")}</dt>
        <dd>
          ${heatingDd === null || coolingDd === null
            ? text.t("history_no_weather")
            : text.t("history_degree_days_value", {
                heating: text.number(heatingDd),
                cooling: text.number(coolingDd),
              })}
        </dd>
        <dt>${text.t("history_eco_away")}</dt>
        <dd>
          ${text.t("history_eco_away_value", {
            eco: text.hours(day.eco_hours),
            away: text.hours(day.away_hours),
          })}
        </dd>
        <dt>${text.t("history_changes")}</dt>
        <dd>
          ${changes.length
            ? html`<ul>
                ${changes.map(([source, count]) => html`<li>${text.source(source)}: ${count}</li>`)}
              </ul>`
            : text.t("history_no_changes")}
        </dd>
      </dl>
    </section>
  `;
}
