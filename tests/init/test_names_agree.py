"""The copier validators (Jinja, in each template's copier.yml) and generator/osmosis_workspace/core/names.py agree."""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jinja2.sandbox import SandboxedEnvironment

from osmosis_workspace.scaffold import catalog
from osmosis_workspace.core.names import name_problem

# copier renders validators in a sandbox with the Ansible core filters (regex_search, ...).
ENV = SandboxedEnvironment(extensions=["jinja2_ansible_filters.AnsibleCoreFiltersExtension"])


def validators() -> list[tuple[str, str, str]]:
    found = []
    for info in catalog.bundled_templates():
        for question, kind in (("workspace_name", "workspace"), ("rollout_name", "rollout")):
            spec = catalog.questions(info.path).get(question)
            if spec and spec.get("validator"):
                found.append((info.name, question, kind))
    return found


VALIDATORS = validators()


@functools.lru_cache(maxsize=None)
def compiled(template: str, question: str):
    return ENV.from_string(catalog.questions(catalog.find_bundled(template).path)[question]["validator"])


def copier_accepts(template: str, question: str, value: str) -> bool:
    """copier's rule: a validator that renders to anything but whitespace rejects the answer."""
    return not compiled(template, question).render({question: value}).strip()


def test_the_name_questions_have_validators():
    found = {(t, q) for t, q, _ in VALIDATORS}
    assert ("workspace", "workspace_name") in found
    assert ("multiply", "rollout_name") in found
    # every rollout template validates its rollout name
    assert {t.name for t in catalog.rollout_templates()} <= {t for t, q, _ in VALIDATORS if q == "rollout_name"}


EDGE_CASES = ["a", "multiply", "my-agent-2", "a" * 64, "a" * 65, "", "1abc", "-abc", "abc-", "a--b", "Abc",
              "a_b", "a b", "default", "défault", "a\n", "a-\n", "x-1-y", "é", "rollouts"]


@pytest.mark.parametrize(("template", "question", "kind"), VALIDATORS)
@pytest.mark.parametrize("value", EDGE_CASES)
def test_edge_cases_agree(template, question, kind, value):
    assert copier_accepts(template, question, value) == (name_problem(value, kind=kind) is None)


names = st.text(alphabet="abz09-_A.\n", min_size=0, max_size=70) | st.from_regex(r"[a-z][a-z0-9-]{0,66}", fullmatch=True)


@pytest.mark.parametrize(("template", "question", "kind"), VALIDATORS)
@settings(max_examples=150, deadline=None)
@given(value=names)
def test_random_names_agree(template, question, kind, value):
    assert copier_accepts(template, question, value) == (name_problem(value, kind=kind) is None)
