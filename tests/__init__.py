"""The project's tests as a regular package.

A regular package, not a namespace one: ``glicko2`` installs a top-level ``tests`` package into site-packages, and a
namespace ``tests/`` loses to it, so ``python -m tests.cluster.topology`` (README) failed with
``ModuleNotFoundError: No module named 'tests.cluster'``. From the repository root this one comes first on
``sys.path`` and wins (tests/test_layout.py checks it).
"""
