"""The pieces of scripts/report.py, one module per job (report.py is the command line)."""
