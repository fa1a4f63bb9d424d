"""The hosted API surface (`/api/v1`), behind API keys."""
