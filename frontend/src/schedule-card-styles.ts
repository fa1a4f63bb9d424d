import { css } from "lit";

import { cardStyles } from "./styles";

/** The schedule card's look, over what both cards share. */
export const scheduleCardStyles = [
  cardStyles,
  css`
    :host {
      --tc-range: var(--state-climate-heat_cool-color, #008000);
    }
    .header {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      justify-content: space-between;
      gap: 8px;
    }
    select,
    input[type="time"],
    input[type="number"] {
      font: inherit;
      color: var(--primary-text-color);
      background: var(--input-fill-color, var(--secondary-background-color, transparent));
      border: 1px solid var(--divider-color, #ccc);
      border-radius: 6px;
      padding: 6px 8px;
      min-height: 36px;
      box-sizing: border-box;
    }
    input[type="number"] {
      width: 5.5em;
    }
    button {
      font: inherit;
      cursor: pointer;
      color: var(--primary-color);
      background: transparent;
      border: 1px solid var(--divider-color, #ccc);
      border-radius: 18px;
      padding: 6px 14px;
      min-height: 36px;
      display: inline-flex;
      align-items: center;
      gap: 4px;
    }
    button.primary {
      color: var(--text-primary-color, #fff);
      background: var(--primary-color);
      border-color: var(--primary-color);
    }
    button:disabled {
      cursor: default;
      opacity: 0.5;
    }
    button.link {
      border: none;
      padding: 4px 6px;
    }
    button svg,
    .icon-button svg {
      width: 20px;
      height: 20px;
      fill: currentColor;
    }
    .icon-button {
      border: none;
      border-radius: 50%;
      padding: 8px;
      color: var(--secondary-text-color);
    }
    .week {
      display: flex;
      flex-direction: column;
      gap: 4px;
      margin: 8px 0;
    }
    .day-line {
      display: grid;
      grid-template-columns: 3.2em 1fr;
      align-items: center;
      gap: 8px;
      width: 100%;
      padding: 2px 0;
      border: none;
      border-radius: 6px;
      color: var(--primary-text-color);
      text-align: start;
    }
    .day-line:hover,
    .day.open .day-line {
      background: var(--secondary-background-color, rgba(127, 127, 127, 0.1));
    }
    .day-name {
      font-weight: 500;
      padding-inline-start: 4px;
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
    }
    .line {
      position: relative;
      height: 28px;
      border-radius: 6px;
      overflow: hidden;
      background: var(--divider-color, #e0e0e0);
    }
    .segment {
      position: absolute;
      top: 0;
      bottom: 0;
      box-sizing: border-box;
      border-inline-start: 2px solid var(--card-background-color, #fff);
      padding: 0 4px;
      font-size: 0.75rem;
      line-height: 28px;
      white-space: nowrap;
      overflow: hidden;
      color: var(--primary-text-color);
    }
    .segment .label[hidden] {
      display: none;
    }
    .segment.heat {
      --tc-color: var(--tc-heat);
    }
    .segment.cool {
      --tc-color: var(--tc-cool);
    }
    .segment.range {
      --tc-color: var(--tc-range);
    }
    .segment {
      background: var(--tc-color);
      background: color-mix(
        in srgb,
        var(--tc-color) var(--tc-share, 100%),
        var(--card-background-color, #fff)
      );
    }
    .segment.carried {
      border-inline-start: none;
      font-style: italic;
    }
    .hours {
      display: grid;
      grid-template-columns: 3.2em 1fr;
      gap: 8px;
    }
    .scale {
      position: relative;
      height: 1.2em;
      font-size: 0.7rem;
      color: var(--secondary-text-color);
    }
    .scale span {
      position: absolute;
      transform: translateX(-50%);
      white-space: nowrap;
    }
    .scale span:first-child {
      transform: none;
    }
    .scale span:last-child {
      transform: translateX(-100%);
    }
    .editor {
      margin: 4px 0 8px;
    }
    .entries {
      list-style: none;
      margin: 0;
      padding: 0;
    }
    .entry {
      display: flex;
      flex-wrap: wrap;
      align-items: flex-end;
      gap: 8px 12px;
      padding: 8px 0 8px 8px;
      border-inline-start: 4px solid var(--tc-heat);
      margin-bottom: 6px;
    }
    .entry.cool {
      border-color: var(--tc-cool);
    }
    .entry.range {
      border-color: var(--tc-range);
    }
    .entry.carried {
      border-color: var(--divider-color, #ccc);
      color: var(--secondary-text-color);
      align-items: center;
    }
    .hint {
      font-size: 0.85rem;
      font-style: italic;
    }
    .field {
      display: flex;
      flex-direction: column;
      gap: 2px;
      font-size: 0.8rem;
      color: var(--secondary-text-color);
    }
    .with-unit {
      display: inline-flex;
      align-items: center;
      gap: 4px;
      color: var(--primary-text-color);
      font-size: 1rem;
    }
    .copy {
      margin: 12px 0 0;
      border: none;
      padding: 0;
      display: flex;
      flex-direction: column;
      gap: 8px;
      align-items: flex-start;
    }
    .copy legend {
      padding: 0;
      margin-bottom: 6px;
      color: var(--secondary-text-color);
      font-size: 0.9rem;
    }
    .chips {
      display: flex;
      flex-wrap: wrap;
      gap: 6px;
    }
    .chip {
      display: inline-flex;
      align-items: center;
      gap: 2px;
      padding: 2px 8px 2px 2px;
      border: 1px solid var(--divider-color, #ccc);
      border-radius: 16px;
    }
    .message p {
      margin: 0 0 4px;
    }
    .message ul {
      margin: 0;
      padding-inline-start: 20px;
    }
    .message.error {
      color: var(--error-color, #db4437);
    }
    .message.warning {
      background: rgba(var(--rgb-warning-color, 255, 166, 0), 0.15);
    }
    .message.ok {
      background: rgba(var(--rgb-success-color, 67, 160, 71), 0.12);
    }
    .message.hold {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      justify-content: space-between;
      gap: 8px;
      border-inline-start: 4px solid var(--tc-heat);
      background: rgba(var(--rgb-primary-color, 3, 169, 244), 0.08);
    }
    .message.eco {
      border-inline-start-color: var(--state-climate-eco-color, #43a047);
    }
    .message.arrival {
      border-inline-start-color: var(--state-climate-heat-color, #ff8100);
    }
    .message.hold p {
      margin: 0;
    }
    .check {
      display: inline-flex;
      align-items: center;
      gap: 6px;
    }
    .actions {
      display: flex;
      flex-wrap: wrap;
      justify-content: flex-end;
      gap: 8px;
      margin-top: 8px;
    }
    .visually-hidden {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip: rect(0 0 0 0);
    }
  `,
];
