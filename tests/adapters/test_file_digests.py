"""Content digests key the caches across processes: equal bytes give equal digests whatever the
process, any changed byte another digest."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from layering.adapters.result_cache import hashed_file


@settings(max_examples=60, deadline=None)
@given(
    data=st.binary(min_size=1, max_size=4096),
    position=st.integers(min_value=0),
    flip=st.integers(min_value=1, max_value=255),
)
def test_any_changed_byte_changes_the_digest(tmp_path_factory, data, position, flip):
    folder = tmp_path_factory.mktemp("digests")
    before, after = folder / "before.py", folder / "after.py"
    before.write_bytes(data)
    changed = bytearray(data)
    changed[position % len(data)] ^= flip
    after.write_bytes(bytes(changed))
    assert hashed_file(str(before))[0] != hashed_file(str(after))[0]
    assert hashed_file(str(before))[0] == hashed_file(str(folder / "before.py"))[0]


def test_the_digest_is_the_same_in_another_process_under_any_hash_seed(tmp_path: Path):
    source = tmp_path / "mod.py"
    source.write_text("import json\n" * 2000)
    here = hashed_file(str(source))[0]
    for seed in ("0", "1", "12345"):
        there = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys; from layering.adapters.result_cache import hashed_file; "
                "print(hashed_file(sys.argv[1])[0])",
                str(source),
            ],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        assert there == here


def test_an_unreadable_file_has_no_digest_and_no_stamp(tmp_path: Path):
    assert hashed_file(str(tmp_path / "missing.py")) == ("", None)
    digest, stamp = hashed_file(str(tmp_path))  # a directory cannot be read as a file
    assert (digest, stamp) == ("", None)
