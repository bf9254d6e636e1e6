"""Hostile templates for `init --template` and `rollout new --template` (no `--trust`), and `update`
following a rollout's answers file to one."""

from __future__ import annotations

from pathlib import Path

import yaml

from cases import (USER_MARK, Case, Plan, Sandbox, Skip, add, as_source, blank_template, copy_base,
                   template_plan)

COMMANDS = ("init", "rollout-new")

# Every rendering of the `.git` folder name we know of (Windows short names, HFS+ ignorables, NTFS
# streams, trailing dots/spaces, Jinja-built names), plus a nested repository inside a rollout.
SPELLINGS = ["{{ dotgit }}", ".git", ".GIT", ".Git", "git~1", ".git\u200c", ".git\u200d",
             "\u200c.git", ".git.", ".git ", ".git::$INDEX_ALLOCATION", "{{ '.g' ~ 'it' }}",
             "{{ dotgit | upper }}", ".git{{ '' }}", "rollouts/{{ rollout_name }}/.git"]
# Spellings git itself accepts in a committed tree (the others are refused, so no file:// URL can carry them).
GIT_OK = ["{{ dotgit }}", "{{ '.g' ~ 'it' }}", "{{ dotgit | upper }}", ".git{{ '' }}"]
HOOKS = ["reference-transaction", "post-index-change", "post-commit", "pre-commit"]


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in text.encode("unicode_escape").decode())[:40]


def hooks_cases() -> list[Case]:
    out = []
    for form in ("path", "git"):
        for spelling in SPELLINGS if form == "path" else GIT_OK:
            for hook in HOOKS:
                for command in COMMANDS:
                    def prepare(sb: Sandbox, spelling=spelling, hook=hook, command=command, form=form) -> Plan:
                        t = blank_template(sb)
                        script = sb.script().read_text()
                        add(t, f"{spelling}/hooks/{hook}", script, executable=True)
                        return template_plan(sb, command, as_source(sb, t, form))
                    out.append(Case("template-git-hooks", f"{form}-{_slug(spelling)}-{hook}-{command}", prepare))
    return out


def _git_configs(sb: Sandbox) -> dict[str, tuple[str, str]]:
    """name -> (.git/config text, .gitattributes text or '')."""
    s = sb.script()
    hooks = sb.root / "tpl" / "hooksdir"
    hooks.mkdir(exist_ok=True)
    for hook in HOOKS:
        (hooks / hook).write_text(s.read_text())
        (hooks / hook).chmod(0o755)
    other = sb.root / "tpl" / "other.gitconfig"
    other.write_text(f"[core]\n\tfsmonitor = {s}\n")
    return {
        "fsmonitor": (f"[core]\n\tfsmonitor = {s}\n", ""),
        "clean-filter": (f'[filter "x"]\n\tclean = {s}\n\tsmudge = {s}\n', "* filter=x\n"),
        "process-filter": (f'[filter "x"]\n\tprocess = {s}\n\trequired = true\n', "* filter=x\n"),
        "hooksPath": (f"[core]\n\thooksPath = {hooks}\n", ""),
        "sshCommand": (f"[core]\n\tsshCommand = {s}\n", ""),
        "pager": (f"[core]\n\tpager = {s}\n[pager]\n\tstatus = true\n", ""),
        "editor": (f"[core]\n\teditor = {s}\n", ""),
        "askPass": (f"[core]\n\taskPass = {s}\n", ""),
        "diff-external": (f"[diff]\n\texternal = {s}\n", ""),
        "gpg-sign": (f"[commit]\n\tgpgsign = true\n[gpg]\n\tprogram = {s}\n", ""),
        "include": (f"[include]\n\tpath = {other}\n", ""),
        "includeIf": (f'[includeIf "gitdir:/"]\n\tpath = {other}\n', ""),
        "credential": (f"[credential]\n\thelper = !{s}\n", ""),
        "worktree-outside": (f"[core]\n\tworktree = {sb.root / 'outside'}\n", ""),
        "packObjectsHook": (f"[uploadpack]\n\tpackObjectsHook = {s}\n", ""),
        "bad-config": ("[core\n\tbroken = = =\n", ""),
        "HEAD-file": ("", ""),  # only a .git/HEAD pointing elsewhere, below
        "info-attributes": (f'[filter "x"]\n\tclean = {s}\n', ""),
    }


CONFIG_NAMES = ["fsmonitor", "clean-filter", "process-filter", "hooksPath", "sshCommand", "pager", "editor",
                "diff-external", "gpg-sign", "include", "credential", "worktree-outside", "bad-config", "HEAD-file",
                "info-attributes"]


def git_config_cases() -> list[Case]:
    out = []
    for form, spellings in (("path", ["{{ dotgit }}", ".GIT"]), ("git", ["{{ dotgit }}"])):
        for spelling in spellings:
            for name in CONFIG_NAMES:
                for command in COMMANDS:
                    def prepare(sb: Sandbox, spelling=spelling, name=name, command=command, form=form) -> Plan:
                        t = blank_template(sb)
                        config, attrs = _git_configs(sb)[name]
                        if config:
                            add(t, f"{spelling}/config", config)
                        if name == "HEAD-file":
                            add(t, f"{spelling}/HEAD", "ref: refs/heads/evil\n")
                        if name == "info-attributes":
                            add(t, f"{spelling}/info/attributes", "* filter=x\n")
                        if attrs:
                            add(t, ".gitattributes", attrs)
                        return template_plan(sb, command, as_source(sb, t, form))
                    out.append(Case("template-git-config", f"{form}-{_slug(spelling)}-{name}-{command}", prepare))
    return out


ATTRS = ["filter=x", "diff=x", "merge=x", "filter=lfs diff=lfs merge=lfs", "ident", "working-tree-encoding=UTF-16",
         "text eol=crlf", "export-subst"]
ATTR_PLACES = [".gitattributes", "rollouts/{{ rollout_name }}/.gitattributes"]
SUBMODULES = {
    "ext-url": 'url = ext::sh -c {s}',
    "upload-pack": "url = --upload-pack={s}",
    "update-command": "update = !{s}\n\turl = https://example.invalid/x.git",
    "file-url-outside": "url = file://{outside}",
    "path-escape": "url = https://example.invalid/x.git",
    "dash-path": "url = https://example.invalid/x.git",
}


def attributes_cases() -> list[Case]:
    out = []
    for attr in ATTRS:
        for with_config in (False, True):
            for place in ATTR_PLACES:
                for command in COMMANDS:
                    def prepare(sb: Sandbox, attr=attr, with_config=with_config, place=place, command=command) -> Plan:
                        t = blank_template(sb)
                        s = sb.script()
                        add(t, place, f"* {attr}\n*.py {attr}\n")
                        if with_config:
                            add(t, "{{ dotgit }}/config",
                                f'[filter "x"]\n\tclean = {s}\n\tsmudge = {s}\n[diff "x"]\n\tcommand = {s}\n'
                                f'\ttextconv = {s}\n[merge "x"]\n\tdriver = {s} %O %A %B\n')
                        return template_plan(sb, command, str(t))
                    cfg = "with-config" if with_config else "no-config"
                    out.append(Case("template-gitattributes", f"{_slug(attr)}-{cfg}-{_slug(place)}-{command}", prepare))
    for name, line in SUBMODULES.items():
        for place in ("", "rollouts/{{ rollout_name }}/"):
            for command in COMMANDS:
                def prepare(sb: Sandbox, name=name, line=line, place=place, command=command) -> Plan:
                    t = blank_template(sb)
                    s = sb.script()
                    path = {"path-escape": "../../outside/dir", "dash-path": "-evil"}.get(name, "sub")
                    add(t, f"{place}.gitmodules", f'[submodule "x"]\n\tpath = {path}\n\t'
                        + line.format(s=s, outside=sb.root / "outside") + "\n")
                    return template_plan(sb, command, str(t))
                out.append(Case("template-gitattributes", f"gitmodules-{name}-{_slug(place) or 'root'}-{command}", prepare))
    return out


def _copier_code(sb: Sandbox, variant: str) -> Path:
    s = sb.script()
    cmd = f"sh {s}"
    if variant == "tasks-str":
        return blank_template(sb, _tasks=[cmd])
    if variant == "tasks-list":
        return blank_template(sb, _tasks=[["sh", str(s)]])
    if variant == "tasks-dict":
        return blank_template(sb, _tasks=[{"command": cmd, "when": "{{ true }}"}])
    if variant == "tasks-jinja":
        return blank_template(sb, _tasks=["sh {{ '%s' }} {{ _copier_conf.dst_path }}" % s])
    if variant == "migrations":
        return blank_template(sb, _migrations=[{"version": "v0.0.1", "command": cmd}])
    if variant == "migrations-new-style":
        return blank_template(sb, _migrations=[cmd])
    if variant.startswith("migrations-include"):
        t = blank_template(sb)
        nested = variant.endswith("nested")
        (t / "extra").mkdir()
        (t / "extra" / "mig.yml").write_text(yaml.safe_dump({"_migrations": [cmd]}))
        if nested:
            (t / "extra" / "outer.yml").write_text("---\n!include extra/mig.yml\n")
        with (t / "copier.yml").open("a") as fh:
            fh.write(f"---\n!include {'extra/outer.yml' if nested else 'extra/mig.yml'}\n")
        return t
    if variant == "tasks-include":
        t = blank_template(sb)
        (t / "tasks.yml").write_text(yaml.safe_dump({"_tasks": [cmd]}))
        with (t / "copier.yml").open("a") as fh:
            fh.write("---\n!include tasks.yml\n")
        return t
    if variant == "jinja-ext-local":
        t = blank_template(sb, _jinja_extensions=["evil_ext.Evil"])
        (t / "evil_ext.py").write_text(f"import os\nos.system('{cmd}')\nfrom jinja2.ext import Extension\n"
                                       "class Evil(Extension):\n    pass\n")
        return t
    if variant == "jinja-ext-os":
        return blank_template(sb, _jinja_extensions=["os.system"])
    if variant == "jinja-ext-known":
        return blank_template(sb, _jinja_extensions=["jinja2.ext.do"])
    if variant == "external-data":
        return blank_template(sb, _external_data={"secret": str(sb.root / "home" / "secrets" / "token.txt")})
    if variant == "message-jinja":
        return blank_template(sb, _message_after_copy="{{ cycler.__init__.__globals__.os.system('%s') }}" % cmd)
    raise ValueError(variant)


CODE_VARIANTS = ["tasks-str", "tasks-list", "tasks-dict", "tasks-jinja", "tasks-include", "migrations",
                 "migrations-new-style", "migrations-include", "migrations-include-nested", "jinja-ext-local",
                 "jinja-ext-os", "jinja-ext-known", "external-data", "message-jinja"]


def copier_code_cases() -> list[Case]:
    out = []
    for variant in CODE_VARIANTS:
        for form in ("path", "git"):
            for command in COMMANDS:
                def prepare(sb: Sandbox, variant=variant, form=form, command=command) -> Plan:
                    return template_plan(sb, command, as_source(sb, _copier_code(sb, variant), form))
                out.append(Case("template-copier-code", f"{variant}-{form}-{command}", prepare))
    return out


LINK_TARGETS = {
    "victim-file": lambda sb: sb.root / "outside" / "victim.txt",
    "bashrc": lambda sb: sb.root / "home" / ".bashrc",
    "outside-dir": lambda sb: sb.root / "outside" / "dir",
    "root": lambda sb: Path("/"),
    "relative-escape": lambda sb: Path("../../../../../../outside/victim.txt"),
}
LINK_PLACES = ["rollouts/{{ rollout_name }}/README.md", "rollouts/{{ rollout_name }}/.copier-answers.yml",
               "configs/eval/{{ rollout_name }}.toml", "rollouts/{{ rollout_name }}/linked"]
ANSWERS_FILES = {
    "absolute-outside": lambda sb: str(sb.root / "outside" / "answers.yml"),
    "absolute-bashrc": lambda sb: str(sb.root / "home" / ".bashrc"),
    "dotdot": lambda sb: "../../outside/victim.txt",
    "dotdot-rollout": lambda sb: "rollouts/../../../outside/answers.yml",
    "tilde": lambda sb: "~/.bashrc",
    "dev-null": lambda sb: "/dev/null",
}


def links_cases() -> list[Case]:
    out = []
    for target in LINK_TARGETS:
        for place in LINK_PLACES:
            for preserve in (True, False):
                for command in COMMANDS:
                    def prepare(sb: Sandbox, target=target, place=place, preserve=preserve, command=command) -> Plan:
                        t = blank_template(sb, _preserve_symlinks=preserve)
                        link = t / "template" / place
                        if link.exists():
                            link.unlink()
                        answers = t / "template" / "{{ _copier_conf.answers_file }}.jinja"
                        if place.endswith(".copier-answers.yml") and answers.exists():
                            answers.unlink()
                        link.parent.mkdir(parents=True, exist_ok=True)
                        link.symlink_to(LINK_TARGETS[target](sb))
                        return template_plan(sb, command, str(t))
                    out.append(Case("template-links-answers",
                                    f"link-{target}-{_slug(place)}-{'preserve' if preserve else 'follow'}-{command}",
                                    prepare))
    for name, where in ANSWERS_FILES.items():
        for command in COMMANDS:
            def prepare(sb: Sandbox, where=where, command=command) -> Plan:
                return template_plan(sb, command, str(blank_template(sb, _answers_file=where(sb))))
            out.append(Case("template-links-answers", f"answers-{name}-{command}", prepare))
    return out


def _escapes(s: str) -> dict[str, str]:
    cmd = f"sh {s}"
    table = {
        "mro-subclasses": "{{ ''.__class__.__mro__[1].__subclasses__() }}",
        "cycler-globals": "{{ cycler.__init__.__globals__.os.popen('CMD').read() }}",
        "joiner-globals": "{{ joiner.__init__.__globals__.os.system('CMD') }}",
        "lipsum-globals": "{{ lipsum.__globals__['os'].popen('CMD').read() }}",
        "namespace-globals": "{{ namespace.__init__.__globals__.os.system('CMD') }}",
        "self-builtins": "{{ self.__init__.__globals__.__builtins__.__import__('os').system('CMD') }}",
        "attr-filter": "{{ (''|attr('__class__')|attr('__mro__'))[1]|attr('__subclasses__')() }}",
        "warning-module": ("{% for x in ().__class__.__base__.__subclasses__() %}{% if 'warning' in x.__name__ %}"
                           "{{ x()._module.__builtins__['__import__']('os').system('CMD') }}{% endif %}{% endfor %}"),
        "copier-conf-globals": "{{ _copier_conf.__class__.__init__.__globals__ }}",
        "format-string": "{{ '{0.__class__.__mro__}'.format('') }}",
        "range-overflow": "{{ range(999999999) | list | length }}",
        "dict-update": "{% set d = {} %}{{ d.__setitem__('a', 1) }}{{ d.update.__self__.__class__.__subclasses__() }}",
        "include-missing": "{% include 'nope.txt' %}",
        "extends-missing": "{% extends 'missing.jinja' %}",
        "import-missing": "{% import 'macros.jinja' as m %}{{ m.x() }}",
        "include-etc-passwd": "{% include '/etc/passwd' %}",
        "include-dotdot": "{% include '../../../home/.bashrc' %}",
        "from-missing": "{% from 'x.jinja' import y %}{{ y }}",
        "syntax-unclosed": "{{ unclosed",
        "syntax-if": "{% if %}x{% endif %}",
        "syntax-endfor": "{% endfor %}",
        "undefined-deep": "{{ undefined_var.attr.deeper }}",
        "zero-division": "{{ 1 / 0 }}",
        "recursion-macro": "{% macro r(n) %}{{ r(n + 1) }}{% endmacro %}{{ r(0) }}",
    }
    return {name: expr.replace("CMD", cmd) for name, expr in table.items()}


JINJA_NAMES = list(_escapes("x"))
JINJA_PLACES = ["content", "default"]


def jinja_cases() -> list[Case]:
    out = []
    for name in JINJA_NAMES:
        for place in JINJA_PLACES:
            for command in COMMANDS:
                def prepare(sb: Sandbox, name=name, place=place, command=command) -> Plan:
                    expr = _escapes(str(sb.script()))[name]
                    if place == "content":
                        t = blank_template(sb)
                        add(t, "rollouts/{{ rollout_name }}/EVIL.md.jinja", f"before\n{expr}\nafter\n")
                    elif place == "default":
                        t = blank_template(sb, evil_q={"type": "str", "default": expr, "when": False})
                        add(t, "rollouts/{{ rollout_name }}/EVIL.md.jinja", "{{ evil_q }}\n")
                    else:
                        t = blank_template(sb, _message_after_copy=expr)
                    return template_plan(sb, command, str(t))
                out.append(Case("template-jinja", f"{name}-{place}-{command}", prepare))
    return out


def _yaml_bodies(sb: Sandbox) -> dict[str, str | bytes]:
    s = sb.script()
    laughs = "a0: &a0 [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"a{i}: &a{i} [{', '.join(['*a%d' % (i - 1)] * 9)}]\n" for i in range(1, 9))
    return {
        "tab-indent": "rollout_name:\n\ttype: str\n",
        "unclosed-quote": 'rollout_name:\n  default: "never closed\n',
        "duplicate-key": "rollout_name: {type: str}\nrollout_name: {type: int}\n",
        "python-object": f'x: !!python/object/apply:os.system ["sh {s}"]\n',
        "python-name": "x: !!python/name:os.system\n",
        "unknown-tag": "x: !evil thing\n",
        "billion-laughs": laughs + "rollout_name: {type: str, default: r}\n",
        "list-root": "- a\n- b\n",
        "scalar-root": "just a string\n",
        "empty": "",
        "binary": bytes(range(256)) * 8,
        "utf16": "rollout_name: {type: str}\n".encode("utf-16"),
        "include-missing": "!include missing.yml\n",
        "include-etc-passwd": "!include /etc/passwd\n",
        "include-dotdot": "!include ../../home/.bashrc\n",
        "include-cycle": "!include cycle.yml\n",
        "deep-nesting": "x: " + "[" * 5000 + "]" * 5000 + "\n",
        "huge": "x: |\n" + ("  " + "y" * 1000 + "\n") * 20000,
        "bad-type": "rollout_name: {type: python, default: x}\n",
        "subdirectory-escape": "_subdirectory: ../../..\n",
        "subdirectory-root": "_subdirectory: /\n",
        "min-version": '_min_copier_version: "99.0"\n',
        "validator-escape": ("rollout_name:\n  type: str\n  default: r\n  validator: \"{{ cycler.__init__.__globals__"
                             ".os.system('sh %s') }}\"\n" % s),
        "template-toml-garbage": "",
    }


def yaml_cases() -> list[Case]:
    names = ["tab-indent", "unclosed-quote", "duplicate-key", "python-object", "python-name", "unknown-tag",
             "billion-laughs", "list-root", "scalar-root", "empty", "binary", "utf16", "include-missing",
             "include-etc-passwd", "include-dotdot", "include-cycle", "deep-nesting", "huge", "bad-type",
             "subdirectory-escape", "subdirectory-root", "min-version", "validator-escape", "template-toml-garbage"]
    out = []
    for name in names:
        for command in COMMANDS:
            def prepare(sb: Sandbox, name=name, command=command) -> Plan:
                t = blank_template(sb)
                body = _yaml_bodies(sb)[name]
                if name == "template-toml-garbage":
                    (t / "template.toml").write_bytes(b"kind = \x00\xff[[[\n" * 100)
                elif name in ("subdirectory-escape", "subdirectory-root", "min-version", "validator-escape"):
                    cfg = yaml.safe_load((t / "copier.yml").read_text())
                    cfg.pop("rollout_name") if name == "validator-escape" else None
                    (t / "copier.yml").write_text(body + yaml.safe_dump(cfg, sort_keys=False))
                elif name == "include-cycle":
                    (t / "cycle.yml").write_text("!include copier.yml\n")
                    (t / "copier.yml").write_text(body)
                elif isinstance(body, bytes):
                    (t / "copier.yml").write_bytes(body)
                else:
                    (t / "copier.yml").write_text(body)
                return template_plan(sb, command, str(t))
            out.append(Case("template-yaml", f"{name}-{command}", prepare))
    return out


UPDATE_VARIANTS = [("hooks", s) for s in ("{{ dotgit }}", ".git", ".GIT", "{{ '.g' ~ 'it' }}")] + \
    [("config", n) for n in ("fsmonitor", "clean-filter", "hooksPath", "gpg-sign", "HEAD-file", "bad-config")] + \
    [("code", v) for v in CODE_VARIANTS] + [("jinja", n) for n in ("cycler-globals", "include-missing", "syntax-unclosed")]


def update_cases() -> list[Case]:
    out = []
    for kind, variant in UPDATE_VARIANTS:
        def prepare(sb: Sandbox, kind=kind, variant=variant) -> Plan:
            if kind == "hooks":
                t = blank_template(sb)
                for hook in HOOKS:
                    add(t, f"{variant}/hooks/{hook}", sb.script().read_text(), executable=True)
            elif kind == "config":
                t = blank_template(sb)
                config, attrs = _git_configs(sb)[variant]
                if config:
                    add(t, "{{ dotgit }}/config", config)
                if variant == "HEAD-file":
                    add(t, "{{ dotgit }}/HEAD", "ref: refs/heads/evil\n")
                if attrs:
                    add(t, ".gitattributes", attrs)
            elif kind == "code":
                t = _copier_code(sb, variant)
            else:
                t = blank_template(sb)
                add(t, "rollouts/{{ rollout_name }}/EVIL.md.jinja", _escapes(str(sb.script()))[variant])
            ws = copy_base(sb, "blank-ws")
            answers = ws / "rollouts" / "my-rollout" / ".copier-answers.yml"
            data = answers.read_text().replace("_src_path: bundled:blank", f"_src_path: {t}")
            data = data.replace("_osmosis_template: blank", f"_osmosis_template: {t}")
            answers.write_text(data)
            main = ws / "rollouts" / "my-rollout" / "main.py"
            main.write_text(USER_MARK + "\n" + main.read_text())
            sb.git("add", "-A", check=True)
            sb.git("commit", "-qm", "point at a template; my edit", check=True)

            def verify(s: Sandbox) -> list[str]:
                text = main.read_text(errors="replace") if main.is_file() else ""
                rej = main.with_name("main.py.rej")
                if USER_MARK in text or (rej.is_file() and USER_MARK in rej.read_text(errors="replace")):
                    return []
                return ["rollouts/my-rollout/main.py lost the user's edit"]
            return Plan(lambda s: s.run("update", s.ws), rule="update", verify=verify, follow_up=True)
        out.append(Case("template-via-update", f"{kind}-{_slug(variant)}", prepare))
    return out


def all_cases() -> list[Case]:
    return (hooks_cases() + git_config_cases() + attributes_cases() + copier_code_cases() + links_cases()
            + jinja_cases() + yaml_cases() + update_cases())

