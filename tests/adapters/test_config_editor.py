"""Editing the configuration is atomic: on any failure the file is left as it was."""

from __future__ import annotations

import os

import pytest

from layering.adapters import config_editor
from layering.domain.results import StaleEntry

TEXT = '# keep\nroot_packages = ["app"]\n\n[[contracts]]\nallow = ["a -> b",  "c -> d"]  # two\n'


def test_a_failed_rename_leaves_the_file_and_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "contracts.toml"
    path.write_text(TEXT)

    def refuse(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(config_editor.os, "replace", refuse)
    with pytest.raises(config_editor.EditFailed, match="No space left on device"):
        config_editor.remove_entries(str(path), (), [(0, StaleEntry("allow", 0, "a -> b"))])
    assert path.read_text() == TEXT
    assert os.listdir(tmp_path) == ["contracts.toml"]


def test_an_edit_keeps_comments_and_the_file_mode(tmp_path):
    path = tmp_path / "contracts.toml"
    path.write_text(TEXT)
    path.chmod(0o640)
    config_editor.remove_entries(str(path), (), [(0, StaleEntry("allow", 0, "a -> b"))])
    assert (
        path.read_text()
        == '# keep\nroot_packages = ["app"]\n\n[[contracts]]\nallow = ["c -> d"]  # two\n'
    )
    assert path.stat().st_mode & 0o777 == 0o640
