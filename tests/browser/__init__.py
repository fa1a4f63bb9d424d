"""Browser tests: the UI of a real Home Assistant in Chromium."""
