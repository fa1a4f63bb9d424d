import { css } from "lit";

/**
 * What both cards look like alike: Home Assistant's card with its title, a note, a message
 * box, a day opened for a closer look; the heating and cooling colours of the user's theme.
 */
export const cardStyles = css`
  :host {
    --tc-heat: var(--state-climate-heat-color, #ff8100);
    --tc-cool: var(--state-climate-cool-color, #2b9af9);
    display: block;
  }
  ha-card {
    display: block;
    overflow: hidden;
    color: var(--primary-text-color);
    background: var(--ha-card-background, var(--card-background-color, #fff));
    border-radius: var(--ha-card-border-radius, 12px);
  }
  .header {
    padding: 16px 16px 0;
  }
  .title {
    margin: 0;
    font-size: var(--ha-card-header-font-size, 1.25rem);
    font-weight: 400;
    line-height: 1.4;
  }
  .content {
    padding: 8px 16px 16px;
  }
  .note {
    color: var(--secondary-text-color);
  }
  .message {
    border-radius: 8px;
    padding: 8px 12px;
    margin: 8px 0;
  }
  .message.error {
    background: rgba(var(--rgb-error-color, 219, 68, 55), 0.1);
  }
  /* A day opened under the week: the schedule's day editor, the history's day details. */
  .editor,
  .details {
    padding: 8px 12px 12px;
    border: 1px solid var(--divider-color, #ccc);
    border-radius: 8px;
  }
  .editor-head,
  .details-head {
    display: flex;
    align-items: center;
    justify-content: space-between;
  }
  .editor h3,
  .details h3 {
    margin: 0;
    font-size: 1rem;
    font-weight: 500;
  }
`;
