"""Issue 18 point 8: rendering is linear in a template's size and bounded.

Linear is asserted as work counted, not time (bench/render_scale.py measures time): Jinja compiles
per render must not grow with the square of folder depth, and copier must not start git per file.
Bounded: a template deeper, bigger or with more files than osmosis renders is refused in one line,
exit 2, before copier reads it."""

from __future__ import annotations

import os

import pytest

from hostile import add_file, blank_copy, cli


@pytest.fixture
def ws(make_workspace):
    return make_workspace(template="blank", name="ws")


def _deep(template, depth: int) -> None:
    folder = template / "template" / "rollouts" / "{{ rollout_name }}" / "deep"
    folder = folder.joinpath(*["d"] * depth)
    folder.mkdir(parents=True)
    (folder / "leaf.txt").write_text("leaf\n")


def test_jinja_compiles_do_not_grow_with_depth_squared(tmp_path, ws, monkeypatch):
    import jinja2

    compiled = []
    plain = jinja2.Environment.compile

    def counting(self, source, *args, **kwargs):
        compiled.append(source)
        return plain(self, source, *args, **kwargs)

    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    template = blank_copy(tmp_path / "tpl")
    _deep(template, 60)
    result = cli("rollout", "new", "second", "--template", template, "--workspace", ws, "--defaults")
    assert result.exit_code == 0, result.output
    assert (ws / "rollouts/second/deep").joinpath(*["d"] * 60, "leaf.txt").read_text() == "leaf\n"
    # 60 folders and a leaf: a compile per path part was 61 * 62 / 2 = 1,891 for the chain alone
    assert len(compiled) < 300, len(compiled)


def test_copier_starts_no_git_per_file(tmp_path, ws, monkeypatch):
    import subprocess

    started = []
    plain = subprocess.Popen.__init__

    def counting(self, args, *a, **kw):
        started.append(args)
        return plain(self, args, *a, **kw)

    template = blank_copy(tmp_path / "tpl")
    for i in range(40):
        add_file(template, f"rollouts/{{{{ rollout_name }}}}/many/f{i}.txt", f"{i}\n")
    monkeypatch.setattr(subprocess.Popen, "__init__", counting)
    result = cli("rollout", "new", "second", "--template", template, "--workspace", ws, "--defaults")
    assert result.exit_code == 0, result.output
    per_file = [a for a in started if "core.fileMode" in map(str, a) or "ls-files" in map(str, a)]
    assert len(per_file) < 5, len(per_file)


def test_paths_with_and_without_jinja_render_as_before(tmp_path, ws):
    template = blank_copy(tmp_path / "tpl")
    add_file(template, "rollouts/{{ rollout_name }}/plain/notes.txt", "plain\n")
    add_file(template, "rollouts/{{ rollout_name }}/{% yield n from ['a', 'b'] %}{{ n }}{% endyield %}/x.txt", "y\n")
    add_file(template, "rollouts/{{ rollout_name }}/{{ rollout_name }}-{% raw %}x{% endraw %}.md", "r\n")
    add_file(template, "rollouts/{{ rollout_name }}/{% if false %}never{% endif %}", "gone\n")
    result = cli("rollout", "new", "second", "--template", template, "--workspace", ws, "--defaults")
    assert result.exit_code == 0, result.output
    base = ws / "rollouts" / "second"
    assert (base / "plain/notes.txt").read_text() == "plain\n"
    assert (base / "a/x.txt").is_file() and (base / "b/x.txt").is_file()
    assert (base / "second-x.md").is_file()
    assert not (base / "never").exists()


def test_a_template_too_deep_is_refused(tmp_path, ws):
    template = blank_copy(tmp_path / "tpl")
    _deep(template, 70)
    result = cli("rollout", "new", "second", "--template", template, "--workspace", ws, "--defaults")
    assert result.exit_code == 2, result.output
    assert "more than osmosis renders" in result.output and "64 levels" in result.output, result.output


def test_a_huge_sparse_file_is_refused_unread(tmp_path, ws):
    template = blank_copy(tmp_path / "tpl")
    big = template / "template" / "rollouts" / "{{ rollout_name }}" / "sparse.bin"
    with open(big, "wb") as handle:
        handle.truncate(1 << 30)  # 1 GB, no blocks on disk
    result = cli("rollout", "new", "second", "--template", template, "--workspace", ws, "--defaults")
    assert result.exit_code == 2, result.output
    assert "1024 MB" in result.output and "sparse.bin" in result.output, result.output
    assert not (ws / "rollouts" / "second").exists()


def test_too_many_files_is_refused(tmp_path, ws, monkeypatch):
    from osmosis_workspace.scaffold import jinja_bounds

    monkeypatch.setattr(jinja_bounds, "MAX_TEMPLATE_FILES", 60)  # the default, 20,000, only takes longer to build
    template = blank_copy(tmp_path / "tpl")
    for i in range(61):
        add_file(template, f"rollouts/{{{{ rollout_name }}}}/many/f{i}.txt", "x\n")
    result = cli("rollout", "new", "second", "--template", template, "--workspace", ws, "--defaults")
    assert result.exit_code == 2, result.output
    assert "more than 60 files" in result.output, result.output
    assert os.path.isdir(ws / "rollouts")
