"""Writing a thermostat: the command list and the one write path.

The write path merges, saves, delivers and then tells its followers; beside it the home's away
and eco rules, fan timers, who changed what, and the confirmations that tell a setting the
thermostat took from one it ignored.
"""
