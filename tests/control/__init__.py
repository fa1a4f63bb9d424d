"""The control API, as dashboards, scripts and third-party clients use it."""
