import { html, svg, type TemplateResult } from "lit";

/** A Material Design icon (an `@mdi/js` path), coloured as the text around it. */
export function icon(path: string): TemplateResult {
  return html`<svg viewBox="0 0 24 24" aria-hidden="true">${svg`<path d=${path}></path>`}</svg>`;
}

/** Home Assistant's icon button where the dashboard has defined it, else a plain button. */
export function iconButton(path: string, label: string, action: () => void): TemplateResult {
  if (customElements.get("ha-icon-button")) {
    return html`<ha-icon-button .path=${path} .label=${label} @click=${action}></ha-icon-button>`;
  }
  return html`<button class="icon-button" aria-label=${label} title=${label} @click=${action}>
    ${icon(path)}
  </button>`;
}
