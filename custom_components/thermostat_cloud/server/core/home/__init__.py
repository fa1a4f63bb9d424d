"""What the home asks of its thermostats over time: holds and vacations."""
