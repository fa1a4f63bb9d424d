"""What the service learns by watching reports.

Runtime, the day ledger, the house's heating model, health findings and the monthly report.
"""
