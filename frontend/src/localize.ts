/**
 * The card's strings, by Home Assistant's language (`hass.language`), English where a language
 * or a string is missing. Placeholders are written {name}. Each language is a JSON file in
 * `translations/`, so tests/test_translations.py checks them as it checks the integration's:
 * every key of English, no other, the same placeholders.
 */

import de from "./translations/de.json";
import en from "./translations/en.json";
import es from "./translations/es.json";
import fr from "./translations/fr.json";
import it from "./translations/it.json";
import nl from "./translations/nl.json";

export type StringKey = keyof typeof en;
type Strings = Partial<Record<StringKey, string>>;

const TRANSLATIONS: Record<string, Strings> = { en, de, es, fr, it, nl };

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
