"""What the service knows of firmware, and why a thermostat ignores commands.

Pure knowledge (versions, forms, habits), each fact citing its source; the write path and the
device sessions both ask it.
"""
