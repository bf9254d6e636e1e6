"""`osmosis template list` and `osmosis template inspect`: the catalogue as a table, JSON, or one template's questions."""

from __future__ import annotations

import json

import typer

from osmosis_workspace.scaffold.catalog import (
    ALIASES,
    RECIPES,
    find_bundled,
    read_info,
    resolve_alias,
    rollout_templates,
    rule_text,
    when_text,
)


def _recipes() -> list[dict[str, object]]:
    """The platform's recipe names, each a bundled template with the answers it implies."""
    out = []
    for name in RECIPES:
        target, answers = ALIASES[name]
        info = find_bundled(target)
        if info is None or find_bundled(name) is not None:
            continue
        implied = ", ".join(f"{k}={v}" for k, v in answers.items())
        out.append({**info.to_dict(), "name": name, "alias_of": target, "answers": answers,
                    "description": f"the platform's recipe: `{target}` with {implied}"})
    return out


def list_command(json_output: bool) -> int:
    """`osmosis template list`: the rollout templates `osmosis init --template` accepts, and the
    platform's recipe names that map onto them."""
    entries = sorted([t.to_dict() for t in rollout_templates()] + _recipes(), key=lambda t: str(t["name"]))
    if json_output:
        typer.echo(json.dumps(entries, indent=2))
        return 0
    width = max((len(str(t["name"])) for t in entries), default=0)
    for t in entries:
        typer.echo(f"{str(t['name']).ljust(width)}  {t['description']}")
    return 0


def _asked(config: dict) -> list[dict]:
    """The questions a user answers (hidden ones, `when: false`, are osmosis's), each with its rule."""
    from osmosis_workspace.scaffold.external import questions as template_questions

    asked = [q.to_dict() for q in template_questions(config) if q.when is not False]
    for q in asked:
        q["rule"] = rule_text(config[q["name"]].get("validator") if isinstance(config[q["name"]], dict) else None)
    return asked


def _print_questions(asked: list[dict]) -> None:
    for q in asked:
        typer.echo(f"\n{q['name']} ({q['type']}{', multiselect' if q['multiselect'] else ''})")
        if q["help"]:
            typer.echo(f"  help:       {q['help']}")
        typer.echo(f"  default:    {json.dumps(q['default'], default=str)}")
        if q["choices"]:
            typer.echo("  choices:    " + ", ".join(f"{c['value']} ({c['label']})" if c["label"] != str(c["value"]) else str(c["value"]) for c in q["choices"]))
        if q["rule"]:
            typer.echo(f"  rule:       {q['rule']}")
        if q["when"] is not True:
            typer.echo(f"  asked when: {when_text(q['when'])}")


def _example(asked: list[dict]) -> str:
    return " ".join(f"--data {q['name']}=..." for q in asked if q["name"] not in ("rollout_name", "workspace_name"))


def inspect_command(name: str, json_output: bool) -> int:
    """`osmosis template inspect`: a template's questions, so an agent can answer them all with --data.
    A bundled rollout template also lists the workspace's own questions, which `osmosis init --data`
    answers together with the rollout's."""
    from osmosis_workspace.scaffold.catalog import workspace_template
    from osmosis_workspace.scaffold.external import load_config, open_template, unsafe_features

    name, _ = resolve_alias(name)
    with open_template(name) as source:
        config = load_config(source.path)
        info = read_info(source.path) if source.bundled else None
        asked = _asked(config)
        unsafe = unsafe_features(config)
    for_init = info is not None and info.kind == "rollout"
    workspace_asked = _asked(load_config(workspace_template().path)) if for_init else []
    if json_output:
        typer.echo(json.dumps({
            "name": info.name if info else source.label,
            "kind": info.kind if info else None,
            "description": info.description if info else None,
            "bundled": source.bundled,
            "questions": asked,
            "init_questions": workspace_asked,
            "unsafe": unsafe,
        }, indent=2, default=str))
        return 0
    typer.echo(f"{source.label}" + (f" ({info.kind}): {info.description}" if info else ""))
    _print_questions(asked)
    if workspace_asked:
        typer.echo(f"\nosmosis init --template {name} also asks the workspace's questions:")
        _print_questions(workspace_asked)
    for key, items in unsafe.items():
        typer.echo(f"\nruns code ({key}, needs --trust): " + "; ".join(items))
    typer.echo("\nanswer without prompts:")
    if info and info.kind == "workspace":
        typer.echo(f"  osmosis init NAME --defaults {_example(asked)}".rstrip())
    else:
        if for_init:
            both = " ".join(filter(None, ["--data workspace_name=NAME", _example(workspace_asked), _example(asked)]))
            typer.echo(f"  osmosis init NAME --template {name} --defaults {both}")
        typer.echo(f"  osmosis rollout new NAME --template {name} --defaults {_example(asked)}".rstrip())
    return 0
