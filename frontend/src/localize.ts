/**
 * The card's strings, by Home Assistant's language (`hass.language`), English where a language
 * or a string is missing. Placeholders are written {name}.
 */

const en = {
  card_name: "Thermostat schedule",
  card_description: "The weekly schedule of a Thermostat Cloud thermostat: see and edit its setpoints.",
  title: "{name} schedule",
  heat: "Heat",
  cool: "Cool",
  range: "Heat/cool",
  mode: "Schedule mode",
  no_entity: "Choose a thermostat in the card's settings.",
  loading: "Loading the schedule…",
  no_schedule: "The thermostat has not reported a schedule yet.",
  create_schedule: "Start a schedule",
  time: "Time",
  temperature: "Temperature",
  low: "Low",
  high: "High",
  carried_over: "carried over from the day before",
  add_setpoint: "Add setpoint",
  remove_setpoint: "Remove setpoint",
  copy_to: "Copy {day} to",
  copy: "Copy",
  all_days: "All days",
  save: "Save",
  discard: "Discard changes",
  saving: "Saving…",
  saved: "Saved. The thermostat gets the schedule as soon as it is connected.",
  edit_day: "Edit {day}",
  close_day: "Close",
  learning_on:
    "Learning is on: the thermostat rewrites its schedule as it learns from the temperatures set by hand, so a schedule saved here will drift.",
  turn_off_learning: "Turn learning off when saving",
  changed_on_thermostat:
    "The thermostat changed its schedule while you were editing (learning, the dial or another app).",
  load_theirs: "Show the thermostat's schedule",
  problems: "Fix these before saving:",
  empty_day: "{day} has no setpoints: add one or copy another day onto it.",
  same_time: "{day} {time}: two setpoints at the same time.",
  out_of_range: "{day} {time}: temperatures must be {min} to {max}.",
  range_order: "{day} {time}: the low temperature must be below the high one.",
  bad_time: "{day}: a setpoint has no valid time.",
  error_not_a_thermostat: "{entity} is not a Thermostat Cloud thermostat.",
  error_not_loaded: "Thermostat Cloud is not running. Check the integration.",
  error_unknown: "Something went wrong: {message}",
  editor_entity: "Thermostat",
  editor_title: "Title (optional)",
  hold: "Held at {temperature} until {until}, then back to the schedule.",
  resume_schedule: "Resume schedule",
};

export type StringKey = keyof typeof en;
type Strings = Partial<Record<StringKey, string>>;

const de: Strings = {
  card_name: "Thermostat-Zeitplan",
  card_description: "Der Wochenplan eines Thermostat-Cloud-Thermostats: Schaltpunkte ansehen und ändern.",
  title: "Zeitplan {name}",
  heat: "Heizen",
  cool: "Kühlen",
  range: "Heizen/Kühlen",
  mode: "Modus des Zeitplans",
  no_entity: "Wähle in den Einstellungen der Karte ein Thermostat.",
  loading: "Zeitplan wird geladen…",
  no_schedule: "Das Thermostat hat noch keinen Zeitplan gemeldet.",
  create_schedule: "Zeitplan anlegen",
  time: "Uhrzeit",
  temperature: "Temperatur",
  low: "Min.",
  high: "Max.",
  carried_over: "vom Vortag übernommen",
  add_setpoint: "Schaltpunkt hinzufügen",
  remove_setpoint: "Schaltpunkt entfernen",
  copy_to: "{day} kopieren nach",
  copy: "Kopieren",
  all_days: "Alle Tage",
  save: "Speichern",
  discard: "Änderungen verwerfen",
  saving: "Wird gespeichert…",
  saved: "Gespeichert. Das Thermostat erhält den Zeitplan, sobald es verbunden ist.",
  edit_day: "{day} bearbeiten",
  close_day: "Schließen",
  learning_on:
    "Lernen ist an: das Thermostat schreibt seinen Zeitplan aus den von Hand eingestellten Temperaturen um, ein hier gespeicherter Zeitplan ändert sich also.",
  turn_off_learning: "Lernen beim Speichern ausschalten",
  changed_on_thermostat:
    "Das Thermostat hat seinen Zeitplan geändert, während du ihn bearbeitet hast (Lernen, Drehring oder eine andere App).",
  load_theirs: "Zeitplan des Thermostats anzeigen",
  problems: "Vor dem Speichern beheben:",
  empty_day: "{day} hat keine Schaltpunkte: füge einen hinzu oder kopiere einen anderen Tag.",
  same_time: "{day} {time}: zwei Schaltpunkte zur selben Zeit.",
  out_of_range: "{day} {time}: Temperaturen müssen zwischen {min} und {max} liegen.",
  range_order: "{day} {time}: die untere Temperatur muss unter der oberen liegen.",
  bad_time: "{day}: ein Schaltpunkt hat keine gültige Uhrzeit.",
  error_not_a_thermostat: "{entity} ist kein Thermostat-Cloud-Thermostat.",
  error_not_loaded: "Thermostat Cloud läuft nicht. Prüfe die Integration.",
  error_unknown: "Etwas ist schiefgegangen: {message}",
  editor_entity: "Thermostat",
  editor_title: "Titel (optional)",
  hold: "Gehalten auf {temperature} bis {until}, danach wieder nach Zeitplan.",
  resume_schedule: "Zeitplan fortsetzen",
};

const TRANSLATIONS: Record<string, Strings> = { en, de };

/** The string in `language` (e.g. "de", "de-CH", "pt-BR"), else English; placeholders filled. */
export function localize(
  language: string | undefined,
  key: StringKey,
  placeholders: Record<string, string | number> = {},
): string {
  const base = (language ?? "en").toLowerCase();
  const strings = TRANSLATIONS[base] ?? TRANSLATIONS[base.split("-")[0]] ?? en;
  const text = strings[key] ?? en[key];
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in placeholders ? String(placeholders[name]) : whole,
  );
}
