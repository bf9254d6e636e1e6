"""Issue 18 point 7 (and the `_envops` case of point 12): a template with no tasks still may not
render unbounded work. Each case ends in one line, "template ... exceeded ...", exit 2, nothing placed;
`osmosis update` re-renders a rollout whose answers name such a template through the same bounds."""

from __future__ import annotations

import subprocess

import pytest

from hostile import add_file, blank_copy, cli

# a loop of loops: each range under Jinja's own 100,000 cap, together 10**10 steps
NESTED = "{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}"
CASES = {
    "string-times-default": ("default", "{{ 'x' * 400000000 }}", "characters or items in one value"),
    "list-times": ("content", "{{ [0] * 400000000 }}", "characters or items in one value"),
    "power": ("content", "{{ 10 ** 100000000 }}", "bits"),
    "nested-range": ("content", NESTED, "loop steps of range()"),
    "nested-range-default": ("default", NESTED, "loop steps of range()"),
    "ljust": ("content", "{{ 'x'.ljust(900000000) }}", "str.ljust"),
    "format-width": ("content", "{{ '{:>900000000}'.format(1) }}", "str.format"),
    "percent-width": ("content", "{{ '%900000000d' % 1 }}", "format's width"),
    "center-filter": ("content", "{{ 'x' | center(900000000) }}", "center filter"),
    "output": ("content", "{% for a in range(60000) %}" + "y" * 1000 + "{% endfor %}", "output cap"),
}


def _template(tmp_path, place: str, expr: str):
    if place == "default":
        template = blank_copy(tmp_path / "tpl", evil_q={"type": "str", "default": expr, "when": False})
        add_file(template, "rollouts/{{ rollout_name }}/EVIL.md.jinja", "{{ evil_q }}\n")
    else:
        template = blank_copy(tmp_path / "tpl")
        add_file(template, "rollouts/{{ rollout_name }}/EVIL.md.jinja", f"before\n{expr}\nafter\n")
    return template


@pytest.mark.parametrize("case", sorted(CASES))
def test_rollout_new_stops_at_the_bound(tmp_path, make_workspace, monkeypatch, case):
    place, expr, said = CASES[case]
    monkeypatch.setenv("OSMOSIS_RENDER_ITERATIONS", "200000")  # the default (10M) stops it the same way, later
    template = _template(tmp_path, place, expr)
    ws = make_workspace(template="blank", name="ws")
    result = cli("rollout", "new", "second", "--template", template, "--workspace", ws, "--defaults")
    assert result.exit_code == 2, result.output
    assert "exceeded" in result.output and said in result.output, result.output
    assert "the template's fault" in result.output
    assert not (ws / "rollouts" / "second").exists()


def test_an_honest_template_renders_under_the_bounds(tmp_path, make_workspace):
    template = _template(tmp_path, "content", "{% for a in range(1000) %}{{ a }}{% endfor %} {{ ('ab' * 1000) | length }}")
    ws = make_workspace(template="blank", name="ws")
    result = cli("rollout", "new", "second", "--template", template, "--workspace", ws, "--defaults")
    assert result.exit_code == 0, result.output
    text = (ws / "rollouts" / "second" / "EVIL.md").read_text()
    assert "998999" in text and "2000" in text


def test_update_renders_a_named_template_within_the_same_bounds(tmp_path, make_workspace, monkeypatch):
    monkeypatch.setenv("OSMOSIS_RENDER_ITERATIONS", "200000")
    template = _template(tmp_path, "content", NESTED)
    ws = make_workspace(template="blank", name="ws")
    answers = ws / "rollouts" / "my-rollout" / ".copier-answers.yml"
    text = answers.read_text().replace("_src_path: bundled:blank", f"_src_path: {template}")
    answers.write_text(text.replace("_osmosis_template: blank", f"_osmosis_template: {template}"))
    subprocess.run(["git", "commit", "-qam", "point at a template"], cwd=ws, check=True)
    result = cli("update", ws)
    assert result.exit_code == 2, result.output
    assert "exceeded" in result.output and "loop steps" in result.output, result.output


def test_a_type_error_in_the_template_is_the_templates_fault(tmp_path, make_workspace):
    template = _template(tmp_path, "content", "{{ 1000 | length }}")
    ws = make_workspace(template="blank", name="ws")
    result = cli("rollout", "new", "second", "--template", template, "--workspace", ws, "--defaults")
    assert result.exit_code == 2, result.output
    assert "TypeError" in result.output and "template's fault" in result.output, result.output


@pytest.mark.parametrize("envops", [{"no_such_setting": 1}, {"extensions": ["x"]}, {"loader": "x"}])
def test_envops_jinja_refuses_is_the_templates_fault(tmp_path, make_workspace, envops):
    template = blank_copy(tmp_path / "tpl", _envops=envops)
    ws = make_workspace(template="blank", name="ws")
    result = cli("rollout", "new", "second", "--template", template, "--workspace", ws, "--defaults")
    assert result.exit_code == 2, result.output
    assert "_envops" in result.output and "template's fault" in result.output, result.output
