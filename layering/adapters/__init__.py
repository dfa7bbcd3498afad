"""Adapters: the file system, grimp, import-linter and child interpreters, behind small
functions."""
