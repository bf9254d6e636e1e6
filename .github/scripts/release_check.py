"""The release checks, one script for the release workflow and for the tests that prove it works.

    python .github/scripts/release_check.py build [--outdir dist]
    python .github/scripts/release_check.py check [--dist dist] [--tag v0.1.0]
    python .github/scripts/release_check.py notes 0.1.0 [--changelog CHANGELOG.md] [-o notes.md]

`build` makes the sdist and, from it, the wheel (so a file missing from the sdist breaks the
build here, not for a user installing from source). `check` proves the pair is releasable before
anything is published: one version everywhere (wheel, sdist, tag, and every file of the checkout
that writes it: `version_mentions`), the license text in both artifacts, a CHANGELOG section for
the version and, at a tag, an empty `[Unreleased]` (its notes would be left out of the release),
`twine check --strict`, and the wheel installed into a new virtualenv answering `osmosis
--version` with that version. `notes` prints a version's CHANGELOG section: the GitHub release text.

Standard library only; `build` and `twine` run as `python -m ...` of this interpreter. A failure is
one line on stderr and exit 1 (2 for a usage error).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from email.parser import HeaderParser
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DIST_NAME = "osmosis_workspace"
_HEADING = re.compile(r"^## \[(?P<name>[^\]]+)\](?P<rest>.*)$")
_LINK_DEF = re.compile(r"^\[[^\]]+\]:\s*\S+")
LICENSE = "LICENSE"
# Each file of the checkout that writes the version, and how to find it there. What the build reads
# (`__version__`) is the one place to set it; the rest are usage examples and fallbacks that must follow.
_VERSION_SPOTS: tuple[tuple[str, str], ...] = (
    ("generator/osmosis_workspace/__init__.py", r'^__version__ = "([^"]+)"'),
    ("templates/workspace/copier.yml", r'^osmosis_version:\n(?:  .*\n)*?  default: "([^"]+)"'),
    ("README.md", r"(?:osmosis-workspace@|rev: )v(\d+\.\d+\.\d+[0-9A-Za-z.+-]*)"),
    ("docs/integrations.md", r"(?:osmosis-workspace@|rev: )v(\d+\.\d+\.\d+[0-9A-Za-z.+-]*)"),
    ("action.yml", r"osmosis-workspace@v(\d+\.\d+\.\d+[0-9A-Za-z.+-]*)"),
    (".pre-commit-hooks.yaml", r"rev: v(\d+\.\d+\.\d+[0-9A-Za-z.+-]*)"),
    ("CHANGELOG.md", r"^## \[(\d[^\]]*)\]"),  # the newest released section
)


class ReleaseError(Exception):
    """What stops a release, said in one line."""


def run(cmd: list[str | Path], **kwargs) -> str:
    proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kwargs)
    if proc.returncode != 0:
        detail = (proc.stderr.strip() or proc.stdout.strip()).splitlines()
        sys.stderr.write(proc.stdout + proc.stderr)  # the whole tool output above the one-line verdict
        raise ReleaseError(f"`{' '.join(str(c) for c in cmd[:4])} ...` failed (exit {proc.returncode})"
                           + (f": {detail[-1]}" if detail else ""))
    return proc.stdout


# -- build -------------------------------------------------------------------------------------


def build(outdir: Path) -> tuple[Path, Path]:
    if outdir.exists() and any(outdir.iterdir()):
        raise ReleaseError(f"{outdir} is not empty; build into a new folder so only this build's files are checked")
    outdir.mkdir(parents=True, exist_ok=True)
    run([sys.executable, "-m", "build", "--outdir", outdir, REPO])  # sdist, then the wheel from the sdist
    return artifacts(outdir)


def artifacts(dist: Path) -> tuple[Path, Path]:
    """The one sdist and the one wheel in ``dist``."""
    sdists = sorted(dist.glob(f"{DIST_NAME}-*.tar.gz"))
    wheels = sorted(dist.glob(f"{DIST_NAME}-*.whl"))
    if len(sdists) != 1 or len(wheels) != 1:
        raise ReleaseError(f"{dist} must hold exactly one sdist and one wheel of {DIST_NAME}, "
                           f"found {len(sdists)} and {len(wheels)}")
    return sdists[0], wheels[0]


# -- check -------------------------------------------------------------------------------------


def wheel_version(wheel: Path) -> str:
    with zipfile.ZipFile(wheel) as zf:
        [meta] = [n for n in zf.namelist() if n.endswith(".dist-info/METADATA")]
        return HeaderParser().parsestr(zf.read(meta).decode("utf-8"))["Version"]


def sdist_version(sdist: Path) -> str:
    with tarfile.open(sdist) as tf:
        [member] = [m for m in tf.getmembers() if m.name.count("/") == 1 and m.name.endswith("/PKG-INFO")]
        data = tf.extractfile(member)
        assert data is not None
        return HeaderParser().parsestr(data.read().decode("utf-8"))["Version"]


def license_missing(sdist: Path, wheel: Path) -> list[str]:
    """Which of the two artifacts lacks the license text (Apache-2.0 4(a): it travels with the work)."""
    missing = []
    with tarfile.open(sdist) as tf:
        if not any(m.name.count("/") == 1 and m.name.endswith(f"/{LICENSE}") and m.size > 0 for m in tf.getmembers()):
            missing.append(sdist.name)
    with zipfile.ZipFile(wheel) as zf:
        if not any(n.endswith(f".dist-info/licenses/{LICENSE}") and zf.getinfo(n).file_size > 0 for n in zf.namelist()):
            missing.append(wheel.name)
    return missing


def version_mentions(repo: Path) -> list[tuple[str, str]]:
    """(file, version) for every place of the checkout that writes the version (`_VERSION_SPOTS`)."""
    found = []
    for rel, pattern in _VERSION_SPOTS:
        try:
            text = (repo / rel).read_text(encoding="utf-8")
        except OSError as err:
            raise ReleaseError(f"cannot read {rel}: {err.strerror or err}") from None
        hits = re.findall(pattern, text, re.M)
        if not hits:
            raise ReleaseError(f"{rel} no longer writes the version where this check looks; update _VERSION_SPOTS")
        found += [(rel, v) for v in (hits[:1] if rel == "CHANGELOG.md" else hits)]
    return found


def unreleased_notes(changelog: Path) -> str:
    """The notes under `## [Unreleased]`: empty when there is none or it holds only `### ` headings."""
    try:
        body = notes("Unreleased", changelog)
    except ReleaseError:
        return ""
    return "\n".join(line for line in body.splitlines() if line.strip() and not line.startswith("### "))


def venv_bin(venv: Path, name: str) -> Path:
    return venv / ("Scripts" if os.name == "nt" else "bin") / name


def installed_version(wheel: Path, work: Path) -> dict[str, str]:
    """Install ``wheel`` (and its dependencies) into a new virtualenv; what each console script says to --version."""
    venv = work / "venv"
    run([sys.executable, "-m", "venv", venv])
    run([venv_bin(venv, "python"), "-m", "pip", "install", "--disable-pip-version-check", "--quiet", wheel])
    # Outside the checkout, so the installed package answers, not the source tree.
    return {script: run([venv_bin(venv, script), "--version"], cwd=work).strip()
            for script in ("osmosis", "osmosis-workspace")}


def check(dist: Path, tag: str | None, changelog: Path, repo: Path = REPO) -> str:
    sdist, wheel = artifacts(dist)
    version = wheel_version(wheel)
    if sdist_version(sdist) != version:
        raise ReleaseError(f"the sdist says version {sdist_version(sdist)} and the wheel {version}")
    if tag is not None and tag != f"v{version}":
        raise ReleaseError(f"tag {tag} does not match the package version {version} (expected tag v{version}); "
                           "set __version__ in generator/osmosis_workspace/__init__.py, or tag the right commit")
    if missing := license_missing(sdist, wheel):
        raise ReleaseError(f"{' and '.join(missing)} carry no {LICENSE} file; Apache-2.0 requires its text in "
                           "every copy (pyproject.toml license-files and the sdist include list)")
    disagree = [f"{rel} says {v}" for rel, v in version_mentions(repo) if v != version]
    if disagree:
        raise ReleaseError(f"the version is {version} but {'; '.join(disagree)} (docs/releasing.md, step 2)")
    notes(version, changelog)  # before publishing: the GitHub release step needs this section
    if tag is not None and unreleased_notes(changelog):
        raise ReleaseError(f"{changelog.name}'s [Unreleased] section is not empty at tag {tag}: move its notes "
                           f"under ## [{version}] (they would be missing from the release notes)")
    run([sys.executable, "-m", "twine", "check", "--strict", sdist, wheel])
    with tempfile.TemporaryDirectory(prefix="osmosis-release-") as tmp:
        said = installed_version(wheel, Path(tmp))
    for script, out in said.items():
        if out != f"osmosis-workspace {version}":
            raise ReleaseError(f"the installed wheel's `{script} --version` says {out!r}, not 'osmosis-workspace {version}'")
    return version


# -- notes -------------------------------------------------------------------------------------


def notes(version: str, changelog: Path) -> str:
    """The body of ``## [version]`` in a Keep a Changelog file, without its heading and link definitions."""
    try:
        lines = changelog.read_text(encoding="utf-8").splitlines()
    except OSError as err:
        raise ReleaseError(f"cannot read {changelog}: {err.strerror or err}") from None
    body: list[str] | None = None
    for line in lines:
        heading = _HEADING.match(line)
        if heading or line.startswith("## "):
            if body is not None:
                break
            if heading and heading["name"].strip().lstrip("v") == version:
                body = []
            continue
        if body is not None and not _LINK_DEF.match(line):
            body.append(line)
    if body is None:
        raise ReleaseError(f"{changelog.name} has no section `## [{version}]`; move the Unreleased notes under it")
    text = "\n".join(body).strip()
    if not text:
        raise ReleaseError(f"{changelog.name}'s section for {version} is empty")
    return text + "\n"


# -- command line ------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="release_check.py", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_build = sub.add_parser("build", help="build the sdist and the wheel")
    p_build.add_argument("--outdir", type=Path, default=REPO / "dist")
    p_check = sub.add_parser("check", help="check a built sdist and wheel before publishing")
    p_check.add_argument("--dist", type=Path, default=REPO / "dist")
    p_check.add_argument("--tag", help="the git tag being released, e.g. v0.1.0")
    p_check.add_argument("--changelog", type=Path, default=REPO / "CHANGELOG.md")
    p_check.add_argument("--repo", type=Path, default=REPO, help="the checkout whose files must agree on the version")
    p_notes = sub.add_parser("notes", help="print a version's CHANGELOG section")
    p_notes.add_argument("version", help="e.g. 0.1.0 (a leading v is ignored)")
    p_notes.add_argument("--changelog", type=Path, default=REPO / "CHANGELOG.md")
    p_notes.add_argument("-o", "--output", type=Path)
    args = parser.parse_args(argv)
    try:
        if args.command == "build":
            sdist, wheel = build(args.outdir)
            print(f"built {sdist.name} and {wheel.name} in {args.outdir}")
        elif args.command == "check":
            version = check(args.dist, args.tag, args.changelog, args.repo)
            print(f"release check passed: osmosis-workspace {version}"
                  + (f" matches tag {args.tag}" if args.tag else "")
                  + "; license, one version, twine check, clean install and --version ok")
        else:
            text = notes(args.version.lstrip("v"), args.changelog)
            if args.output:
                args.output.write_text(text, encoding="utf-8")
            else:
                sys.stdout.write(text)
    except ReleaseError as err:
        print(f"release check failed: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
