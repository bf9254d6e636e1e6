"""The release workflow's checks, run here with the same script the workflow calls.

`.github/workflows/release.yml` builds, checks and writes the release notes with
`.github/scripts/release_check.py`; these tests run those very commands on this checkout (the build
is shared with every test that needs a wheel: the `release_dist` fixture). Publishing to PyPI and
creating the GitHub release are the steps that cannot run here: their wiring is checked instead.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
import yaml

from osmosis_workspace import __version__

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / ".github" / "scripts" / "release_check.py"
RELEASE = yaml.safe_load((REPO / ".github/workflows/release.yml").read_text(encoding="utf-8"))


def release_check(*args, cwd: Path = REPO) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], capture_output=True, text=True, cwd=cwd)


def release_script():
    """The script as a module, for the tests that read its tables or run one of its steps in-process."""
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import release_check
    finally:
        sys.path.remove(str(SCRIPT.parent))
    return release_check


def one_line_failure(proc: subprocess.CompletedProcess) -> str:
    assert proc.returncode == 1, proc.stdout + proc.stderr
    verdicts = [line for line in proc.stderr.splitlines() if line.startswith("release check failed: ")]
    assert len(verdicts) == 1 and "Traceback" not in proc.stderr, proc.stderr
    return verdicts[0]


# ----------------------------------------------------------------------------- build and check


def released_changelog(tmp_path: Path) -> Path:
    """CHANGELOG.md as the release commit makes it: the [Unreleased] notes moved under this version."""
    text = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    start = text.index("## [Unreleased]")
    end = text.index("\n## [", start + 1)
    pending = text[text.index("\n", start) + 1:end].strip()
    heading = text.index("\n", end + 1)  # the version's heading line; its body follows
    out = tmp_path / "CHANGELOG.md"
    out.write_text(text[:start] + "## [Unreleased]\n" + text[end:heading + 1] + (f"\n{pending}\n" if pending else "")
                   + text[heading + 1:], encoding="utf-8")
    return out


def repacked(dist: Path, into: Path, drop: str) -> Path:
    """A copy of ``dist`` whose artifacts leave out every member whose name ends with ``drop``."""
    into.mkdir()
    for path in dist.iterdir():
        if path.suffix == ".whl":
            with zipfile.ZipFile(path) as src, zipfile.ZipFile(into / path.name, "w") as dst:
                for item in src.infolist():
                    if not item.filename.endswith(drop):
                        dst.writestr(item, src.read(item))
        else:
            with tarfile.open(path) as src, tarfile.open(into / path.name, "w:gz") as dst:
                for member in src.getmembers():
                    if not member.name.endswith(drop):
                        dst.addfile(member, src.extractfile(member) if member.isfile() else None)
    return into


@pytest.mark.slow
def test_built_artifacts_pass_the_release_check_for_their_tag(release_dist, tmp_path):
    # twine check --strict, the wheel installed with its dependencies into a new virtualenv, and both
    # console scripts answering --version with the tag's version: what the workflow runs before publishing.
    # The changelog is this one as the release commit makes it (notes land under [Unreleased] until then).
    proc = release_check("check", "--dist", release_dist, "--tag", f"v{__version__}",
                         "--changelog", released_changelog(tmp_path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip() == (f"release check passed: osmosis-workspace {__version__} matches tag v{__version__}; "
                                   "license, one version, twine check, clean install and --version ok")


@pytest.mark.slow
def test_a_tag_with_notes_left_under_unreleased_stops_the_release(release_dist, release_wheel, tmp_path, monkeypatch):
    changelog = released_changelog(tmp_path)
    text = changelog.read_text(encoding="utf-8")
    changelog.write_text(text.replace("## [Unreleased]\n", "## [Unreleased]\n\n### Fixed\n\n- late\n", 1), encoding="utf-8")
    line = one_line_failure(release_check("check", "--dist", release_dist, "--tag", f"v{__version__}", "--changelog", changelog))
    assert "[Unreleased] section is not empty at tag" in line
    # Headings alone are no notes: at the tag, the check goes past the [Unreleased] gate and every other
    # one, twine check included, to the clean install. That install and its --version answers depend on
    # the wheel only, never on the changelog, and are made from this same wheel by
    # test_built_artifacts_pass_the_release_check_for_their_tag; here the step is recorded, not made again
    # (a new virtualenv and a pip install of the wheel with its dependencies: 25-65 s).
    empty_headings = text.replace("## [Unreleased]\n", "## [Unreleased]\n\n### Added\n\n", 1)
    changelog.write_text(empty_headings, encoding="utf-8")
    script, installed = release_script(), []

    def installed_version(wheel: Path, work: Path) -> dict[str, str]:
        installed.append(wheel)
        return {name: f"osmosis-workspace {__version__}" for name in ("osmosis", "osmosis-workspace")}

    monkeypatch.setattr(script, "installed_version", installed_version)
    assert script.check(release_dist, f"v{__version__}", changelog) == __version__
    assert installed == [release_wheel]


@pytest.mark.slow
def test_a_dist_without_the_license_text_stops_the_release(release_dist, tmp_path):
    bare = repacked(release_dist, tmp_path / "bare", "LICENSE")
    line = one_line_failure(release_check("check", "--dist", bare))
    assert line.endswith("carry no LICENSE file; Apache-2.0 requires its text in every copy "
                         "(pyproject.toml license-files and the sdist include list)")
    assert ".tar.gz and " in line and ".whl carry" in line


@pytest.mark.slow
def test_a_version_that_disagrees_anywhere_stops_the_release(release_dist, tmp_path):
    script = release_script()
    checkout = tmp_path / "checkout"
    for rel, _ in script._VERSION_SPOTS:
        (checkout / rel).parent.mkdir(parents=True, exist_ok=True)
        (checkout / rel).write_bytes((REPO / rel).read_bytes())
    action = checkout / "action.yml"
    action.write_text(action.read_text(encoding="utf-8").replace(f"@v{__version__}", "@v0.0.9", 1), encoding="utf-8")
    line = one_line_failure(release_check("check", "--dist", release_dist, "--repo", checkout))
    assert line.endswith(f"the version is {__version__} but action.yml says 0.0.9 (docs/releasing.md, step 2)")


@pytest.mark.slow
def test_a_tag_that_is_not_the_package_version_stops_the_release(release_dist):
    line = one_line_failure(release_check("check", "--dist", release_dist, "--tag", "v9.9.9"))
    assert f"tag v9.9.9 does not match the package version {__version__}" in line


@pytest.mark.slow
def test_the_artifacts_carry_the_one_version_and_the_changelog(release_dist):
    (sdist,) = release_dist.glob("*.tar.gz")
    (wheel,) = release_dist.glob("*.whl")
    assert sdist.name == f"osmosis_workspace-{__version__}.tar.gz"
    assert wheel.name == f"osmosis_workspace-{__version__}-py3-none-any.whl"
    with tarfile.open(sdist) as tf:
        names = tf.getnames()
    assert f"osmosis_workspace-{__version__}/CHANGELOG.md" in names
    assert f"osmosis_workspace-{__version__}/LICENSE" in names
    with zipfile.ZipFile(wheel) as zf:
        assert "osmosis_workspace/_bundled/templates/workspace/copier.yml" in zf.namelist()
        license_text = zf.read(f"osmosis_workspace-{__version__}.dist-info/licenses/LICENSE").decode()
    assert license_text == (REPO / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in license_text and "Version 2.0, January 2004" in license_text


@pytest.mark.slow
def test_check_refuses_a_folder_with_a_stale_artifact_beside_the_build(release_dist, tmp_path):
    mixed = tmp_path / "dist"
    mixed.mkdir()
    for path in release_dist.iterdir():
        (mixed / path.name).write_bytes(path.read_bytes())
    (mixed / "osmosis_workspace-0.0.1-py3-none-any.whl").write_bytes(b"")
    assert "exactly one sdist and one wheel" in one_line_failure(release_check("check", "--dist", mixed))
    assert "is not empty" in one_line_failure(release_check("build", "--outdir", mixed))


def test_the_version_is_written_once():
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    project = pyproject.split("[project]", 1)[1].split("\n[", 1)[0]
    assert re.search(r"^version\s*=", project, re.M) is None and 'dynamic = ["version"]' in project
    assert '[tool.hatch.version]\npath = "generator/osmosis_workspace/__init__.py"' in pyproject
    proc = subprocess.run([sys.executable, "-m", "osmosis_workspace", "--version"], capture_output=True, text=True, cwd=REPO)
    assert proc.stdout.strip() == f"osmosis-workspace {__version__}"
    # The bundled workspace template's fallback for a plain `copier copy` (osmosis always passes it).
    copier_yml = yaml.safe_load((REPO / "templates/workspace/copier.yml").read_text(encoding="utf-8"))
    assert copier_yml["osmosis_version"]["default"] == __version__
    # What the release check reads agrees (it looks in every file the steps below name, and more).
    script = release_script()
    mentions = script.version_mentions(REPO)
    assert {v for _, v in mentions} == {__version__}, mentions
    assert {rel for rel, _ in mentions} == {rel for rel, _ in script._VERSION_SPOTS}
    # The usage examples pin the current release.
    for rel in ("README.md", "docs/integrations.md", "action.yml", ".pre-commit-hooks.yaml"):
        text = (REPO / rel).read_text(encoding="utf-8")
        pins = re.findall(r"(?:osmosis-workspace@|rev: )v(\d+\.\d+\.\d+)", text)
        assert pins and set(pins) == {__version__}, (rel, pins)


# ----------------------------------------------------------------------------------- release notes


def test_notes_are_the_versions_changelog_section():
    proc = release_check("notes", f"v{__version__}")
    assert proc.returncode == 0, proc.stderr
    changelog = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    start = changelog.index(f"## [{__version__}]")
    end = changelog.find("\n## [", start + 1)
    section = changelog[changelog.index("\n", start) + 1:end if end != -1 else None]
    assert proc.stdout.strip() == "\n".join(
        line for line in section.splitlines() if not re.match(r"^\[[^\]]+\]: ", line)).strip()
    assert "### Added" in proc.stdout and "## [" not in proc.stdout and "]: https://" not in proc.stdout


def test_notes_of_the_unreleased_section_stop_at_the_next_version(tmp_path):
    changelog = tmp_path / "CHANGELOG.md"
    changelog.write_text("# Changelog\n\n## [Unreleased]\n\n- next\n\n## [1.0.0] - 2030-01-01\n\n- one\n\n"
                         "[Unreleased]: https://example.invalid/compare\n", encoding="utf-8")
    out = tmp_path / "notes.md"
    assert release_check("notes", "Unreleased", "--changelog", changelog, "-o", out).returncode == 0
    assert out.read_text(encoding="utf-8") == "- next\n"
    assert release_check("notes", "1.0.0", "--changelog", changelog).stdout == "- one\n"


def test_notes_for_a_version_without_a_section_or_with_an_empty_one_stop_the_release(tmp_path):
    assert "has no section `## [9.9.9]`" in one_line_failure(release_check("notes", "9.9.9"))
    changelog = tmp_path / "CHANGELOG.md"
    changelog.write_text("## [2.0.0]\n\n## [1.0.0]\n- one\n", encoding="utf-8")
    assert "section for 2.0.0 is empty" in one_line_failure(release_check("notes", "2.0.0", "--changelog", changelog))
    assert "cannot read" in one_line_failure(release_check("notes", "1.0.0", "--changelog", tmp_path / "missing.md"))


# ---------------------------------------------------------------------------------- the workflow


def runs(job: str) -> list[str]:
    return [s["run"] for s in RELEASE["jobs"][job]["steps"] if "run" in s]


def test_release_runs_on_version_tags_and_checks_before_publishing():
    assert RELEASE[True] == {"push": {"tags": ["v*"]}}  # YAML 1.1 reads the key `on` as True
    build = runs("build")
    script = ".github/scripts/release_check.py"
    assert [r.split(script, 1)[1].split()[0] for r in build if script in r] == ["build", "check", "notes"]
    assert any('check --dist dist --tag "$TAG"' in r for r in build)
    assert RELEASE["jobs"]["publish"]["needs"] == "build" and RELEASE["jobs"]["github-release"]["needs"] == "publish"


def test_only_the_publish_job_may_mint_a_pypi_token():
    assert RELEASE["permissions"] == {"contents": "read"}
    publish = RELEASE["jobs"]["publish"]
    assert publish["permissions"] == {"id-token": "write"} and publish["environment"]["name"] == "pypi"
    assert [s["uses"] for s in publish["steps"]][-1] == "pypa/gh-action-pypi-publish@release/v1"
    assert not any("password" in (s.get("with") or {}) for s in publish["steps"])  # trusted publishing, no token
    for name, job in RELEASE["jobs"].items():
        if name != "publish":
            assert "id-token" not in (job.get("permissions") or {}), name


def test_the_github_release_carries_the_changelog_section_and_the_artifacts():
    job = RELEASE["jobs"]["github-release"]
    assert job["permissions"] == {"contents": "write"}
    (command,) = runs("github-release")
    assert command.startswith('gh release create "$TAG" dist/*') and "--notes-file release-notes.md" in command
    assert any('notes "$TAG" --output release-notes.md' in r for r in runs("build"))
