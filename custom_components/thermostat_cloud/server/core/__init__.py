"""The domain core: the service, its one command layer, its one event path, the read model."""
