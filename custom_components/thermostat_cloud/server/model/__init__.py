"""The model and its stores: buckets, device records, pairings, API keys, saved records."""
