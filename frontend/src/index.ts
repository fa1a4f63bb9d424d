/**
 * The module every dashboard loads (registered by the integration with the frontend): it defines
 * the schedule card, the history card and their editors and lists both in the card picker. Nothing else runs at import, so
 * it never delays a dashboard's first paint.
 */
import { ThermostatCloudScheduleCard } from "./card";
import { CARD_TYPE, EDITOR_TYPE, HISTORY_CARD_TYPE, HISTORY_EDITOR_TYPE } from "./const";
import { ThermostatCloudScheduleCardEditor } from "./editor";
import { ThermostatCloudHistoryCard, ThermostatCloudHistoryCardEditor } from "./history-card";
import { localize } from "./localize";

declare global {
  interface Window {
    customCards?: Array<Record<string, unknown>>;
  }
}

function register(): void {
  // Defined once: a second copy of the module (an old cached URL) must not throw.
  if (customElements.get(CARD_TYPE)) return;
  customElements.define(CARD_TYPE, ThermostatCloudScheduleCard);
  customElements.define(EDITOR_TYPE, ThermostatCloudScheduleCardEditor);
  customElements.define(HISTORY_CARD_TYPE, ThermostatCloudHistoryCard);
  customElements.define(HISTORY_EDITOR_TYPE, ThermostatCloudHistoryCardEditor);
  const language = document.documentElement.lang || navigator.language;
  window.customCards = window.customCards ?? [];
  window.customCards.push({
    type: CARD_TYPE,
    name: localize(language, "card_name"),
    description: localize(language, "card_description"),
    preview: true,
    documentationURL: "https://github.com/thermostat-cloud/thermostat-cloud#edit-the-schedule",
  });
  window.customCards.push({
    type: HISTORY_CARD_TYPE,
    name: localize(language, "history_card_name"),
    description: localize(language, "history_card_description"),
    preview: true,
    documentationURL: "https://github.com/thermostat-cloud/thermostat-cloud#energy-history",
  });
}

// The frontend loads this module while it starts, possibly before its app has replaced
// `window.customElements` with a scoped-registry polyfill, which knows nothing defined before
// it: so define once the app has defined its root element (at once when it already has).
if (customElements.get("home-assistant")) register();
else customElements.whenDefined("home-assistant").then(register, () => undefined);
