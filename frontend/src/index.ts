/**
 * The module every dashboard loads (registered by the integration with the frontend): it defines
 * the card and its editor and lists the card in the card picker. Nothing else runs at import, so
 * it never delays a dashboard's first paint.
 */
import { ThermostatCloudScheduleCard } from "./card";
import { CARD_TYPE, EDITOR_TYPE } from "./const";
import { ThermostatCloudScheduleCardEditor } from "./editor";
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
  const language = document.documentElement.lang || navigator.language;
  window.customCards = window.customCards ?? [];
  window.customCards.push({
    type: CARD_TYPE,
    name: localize(language, "card_name"),
    description: localize(language, "card_description"),
    preview: true,
    documentationURL:
      "https://github.com/thermostat-cloud/thermostat-cloud#the-thermostat-in-home-assistant",
  });
}

// The frontend loads this module while it starts, possibly before its app has replaced
// `window.customElements` with a scoped-registry polyfill, which knows nothing defined before
// it: so define once the app has defined its root element (at once when it already has).
if (customElements.get("home-assistant")) register();
else customElements.whenDefined("home-assistant").then(register, () => undefined);
