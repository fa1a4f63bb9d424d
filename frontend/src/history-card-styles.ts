import { css } from "lit";

import { HISTORY_DAYS } from "./history";
import { cardStyles } from "./styles";

/** The history card's look, over what both cards share. */
export const historyCardStyles = [
  cardStyles,
  css`
    /* The text in the theme's text colour: the error red on its tint is under 4.5:1. */
    .message.error {
      color: var(--primary-text-color);
      border-inline-start: 4px solid var(--error-color, #db4437);
    }
    .legend {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: 4px 6px;
      font-size: 0.85rem;
      color: var(--primary-text-color);
    }
    .key {
      display: inline-block;
      width: 12px;
      height: 12px;
      border-radius: 3px;
      margin-inline-start: 6px;
    }
    .key:first-child {
      margin-inline-start: 0;
    }
    .key.heating,
    .segment.heating {
      background: var(--tc-heat);
    }
    .key.cooling,
    .segment.cooling {
      background: var(--tc-cool);
    }
    .top {
      margin-inline-start: auto;
      color: var(--secondary-text-color);
    }
    .bars {
      display: grid;
      grid-template-columns: repeat(${HISTORY_DAYS}, minmax(0, 1fr));
      gap: 4px;
      margin-top: 4px;
      border-top: 1px dashed var(--divider-color, #ccc);
    }
    .bar {
      display: flex;
      flex-direction: column;
      align-items: center;
      width: 100%;
      padding: 4px 0;
      font: inherit;
      color: var(--primary-text-color);
      background: transparent;
      border: none;
      border-radius: 8px;
      cursor: pointer;
    }
    .bar:hover,
    .bar.open {
      background: var(--secondary-background-color, rgba(127, 127, 127, 0.1));
    }
    .bar:focus-visible {
      outline: 2px solid var(--primary-color);
    }
    .plot {
      display: flex;
      flex-direction: column;
      justify-content: flex-end;
      width: 70%;
      max-width: 32px;
      height: 140px;
      border-bottom: 1px solid var(--divider-color, #ccc);
    }
    .segment {
      display: block;
      width: 100%;
    }
    .reason {
      height: 20px;
      margin-top: 4px;
      color: var(--secondary-text-color);
    }
    .reason svg,
    .why svg,
    .icon-button svg {
      width: 20px;
      height: 20px;
      fill: currentColor;
      vertical-align: middle;
    }
    .weekday,
    .date {
      font-size: 0.75rem;
      line-height: 1.3;
      white-space: nowrap;
    }
    .weekday {
      color: var(--secondary-text-color);
    }
    .bar:hover .weekday,
    .bar.open .weekday {
      color: var(--primary-text-color);
    }
    .details {
      margin-top: 8px;
    }
    .icon-button {
      display: inline-flex;
      padding: 8px;
      color: var(--secondary-text-color);
      background: transparent;
      border: none;
      border-radius: 50%;
      cursor: pointer;
    }
    .why {
      margin: 4px 0 8px;
    }
    dl {
      display: grid;
      grid-template-columns: minmax(6em, max-content) 1fr;
      gap: 6px 12px;
      margin: 0;
    }
    dt {
      color: var(--secondary-text-color);
    }
    dd {
      margin: 0;
    }
    dd ul {
      margin: 0;
      padding: 0;
      list-style: none;
    }
    @media (max-width: 420px) {
      dl {
        grid-template-columns: 1fr;
        gap: 2px;
      }
      dd {
        margin-bottom: 6px;
      }
    }
  `,
];
