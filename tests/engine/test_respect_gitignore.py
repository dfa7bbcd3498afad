"""`respect_gitignore = true`: the modules whose files git ignores are left out of the graph
and of every contract, as `exclude` leaves modules out; asked of git itself, so every
`.gitignore` and `.git/info/exclude` counts and a tracked file is never ignored. Real git
repositories in tmp_path, the real CLI."""

from __future__ import annotations

import shutil
import subprocess

import pytest

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

CONFIG = """root_packages = ["app"]
respect_gitignore = true

[[contracts]]
id = "no-db"
name = "Nothing imports the database"
type = "forbidden"
source_modules = ["app.core", "app.gen"]
forbidden_modules = ["app.db"]
"""

FILES = {
    "contracts.toml": CONFIG,
    "app/__init__.py": "",
    "app/db.py": "",
    "app/core.py": "",
    "app/gen/__init__.py": "",
    "app/gen/models.py": "import app.db\n",
    ".gitignore": "app/gen/models.py\n",
}


def git(root, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], check=True, capture_output=True, text=True
    ).stdout


@pytest.fixture
def repository(project):
    project.write(FILES)
    git(project.root, "init", "-q")
    return project


def test_a_module_git_ignores_is_left_out_and_comes_back_when_it_is_not(repository):
    kept = repository.check()
    assert kept.returncode == 0, kept.stdout + kept.stderr
    # The cached verdict follows .gitignore: with the file no longer ignored, it is checked.
    repository.write({".gitignore": ""})
    broken = repository.check()
    assert broken.returncode == 1, broken.stdout
    assert "app/gen/models.py:1: LY001 app.gen.models imports app.db" in broken.stdout
    assert broken.stdout == repository.check("--no-cache").stdout
    # .git/info/exclude is git's too.
    (repository.root / ".git" / "info" / "exclude").write_text("app/gen/models.py\n")
    assert repository.check().returncode == 0


def test_a_tracked_file_is_never_ignored(repository):
    git(repository.root, "add", "-f", "app/gen/models.py")
    result = repository.check()
    assert result.returncode == 1, result.stdout
    assert "app/gen/models.py:1: LY001" in result.stdout


def test_without_the_option_git_is_not_asked(repository):
    repository.write({"contracts.toml": CONFIG.replace("respect_gitignore = true\n", "")})
    assert repository.check().returncode == 1


def test_a_pattern_of_ignored_modules_only_is_a_located_error(repository):
    repository.write({".gitignore": "app/gen/\n"})
    result = repository.check()
    assert result.returncode == 2, result.stdout + result.stderr
    assert (
        "contracts.toml:8: error: contract 'Nothing imports the database': 'app.gen' in"
        " 'source_modules' matches only modules that git's ignore rules ('respect_gitignore')"
        " leaves out" in result.stderr
    )
    assert "stop git ignoring their files (or set respect_gitignore = false)" in result.stderr


def test_outside_a_git_repository_nothing_is_left_out_and_it_says_so(project):
    project.write(FILES)
    # No repository above tmp_path is looked for, whatever the machine has there.
    result = project.check(env={"GIT_CEILING_DIRECTORIES": str(project.root.parent)})
    assert result.returncode == 1, result.stdout
    assert (
        "contracts.toml:2: 'respect_gitignore' leaves nothing out: fatal: not a git repository"
        in result.stderr
    )
