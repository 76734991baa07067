"""Verification of published claims: claim model, statistical judge, runner, reports.

Python API: :func:`verify.run.runner.run`; command line: ``python -m verify``.
"""
