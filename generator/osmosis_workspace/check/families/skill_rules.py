"""The skills family's rules (SKL) and the limits of the Agent Skills specification."""

from __future__ import annotations

from osmosis_workspace.check.registry import family_rules

MAX_NAME_LENGTH = 64


MAX_DESCRIPTION_LENGTH = 1024


MAX_COMPATIBILITY_LENGTH = 500


MAX_BODY_LINES = 500


ALLOWED_KEYS = ("name", "description", "license", "compatibility", "metadata", "allowed-tools")


_F = "skills"


_rule = family_rules(_F)


# --- the skill folder and its front matter (what `agentskills validate` also judges) ---------------
SKILL_MD_MISSING = _rule(
    "SKL001", "skill-md-missing", "error", "A skill folder has no SKILL.md.",
    "Agents discover a skill only through its SKILL.md; without it the folder is ignored.",
    "Add SKILL.md with `name` and `description` front matter, or remove the folder.",
    ".agents/skills/my-skill/ holding only notes.md", source="skills-ref; contract §5")


SKILL_MD_LOWERCASE = _rule(
    "SKL002", "skill-md-lowercase", "warning", "The skill file is named skill.md instead of SKILL.md.",
    "The reference validator accepts skill.md, but agents that look for SKILL.md on case-sensitive "
    "file systems will not find it.",
    "Rename skill.md to SKILL.md (`git mv skill.md SKILL.md`).", ".agents/skills/x/skill.md", source="ours")


SKILL_MD_UNREADABLE = _rule(
    "SKL003", "skill-md-unreadable", "error", "SKILL.md cannot be read as UTF-8 text.",
    "Agents and the reference validator read SKILL.md as UTF-8; other encodings fail to load.",
    "Re-save SKILL.md as UTF-8.", "a SKILL.md saved as Latin-1 with accented letters", source="skills-ref; contract §5")


FRONT_MATTER_MISSING = _rule(
    "SKL004", "front-matter-missing", "error", "SKILL.md does not start with `---` YAML front matter.",
    "The skill's name and description live in the front matter; agents cannot index a skill without them.",
    "Start SKILL.md with `---`, then `name:` and `description:` lines, then a closing `---` line "
    "(no blank line or byte-order mark before the first `---`).",
    "# My skill\\n(no front matter)", source="skills-ref; contract §5")


FRONT_MATTER_UNCLOSED = _rule(
    "SKL005", "front-matter-unclosed", "error", "The front matter has no closing `---`.",
    "Without the closing delimiter the whole file would be read as YAML.",
    "Add a line `---` after the last front-matter key.", "---\\nname: x\\ndescription: y\\n# Body", source="skills-ref; contract §5")


FRONT_MATTER_INVALID_YAML = _rule(
    "SKL006", "front-matter-invalid-yaml", "error", "The front matter is not valid YAML.",
    "Unparsable front matter makes the skill invisible to agents.",
    "Fix the YAML at the reported line; quote values that contain `: ` or start with a special "
    "character (e.g. `description: \"Use when: ...\"`).",
    "description: Use when: the dataset changes", source="skills-ref; contract §5")


FRONT_MATTER_STRICT_YAML = _rule(
    "SKL007", "front-matter-strict-yaml", "error",
    "The front matter uses YAML the reference parser refuses: flow style, anchors/aliases, tags or duplicate keys.",
    "The Agent Skills reference validator parses front matter with strictyaml, which rejects these "
    "features; a skill using them is invalid there.",
    "Use block style (one `key: value` a line, `- item` lists), no `&anchor`/`*alias`/`!!tag`, each key once.",
    "metadata: {author: me}", source="skills-ref; contract §5")


FRONT_MATTER_NOT_MAPPING = _rule(
    "SKL008", "front-matter-not-mapping", "error", "The front matter is not a YAML mapping of keys to values.",
    "Fields are read by key; a list, a bare string or empty front matter holds no fields.",
    "Write the front matter as `key: value` lines: at least `name:` and `description:`.",
    "---\\n- name\\n---", source="skills-ref; contract §5")


FRONT_MATTER_DELIMITERS = _rule(
    "SKL009", "front-matter-delimiters", "warning",
    "A front-matter `---` delimiter is not on a line of its own.",
    "The reference validator splits at the first two `---` anywhere in the file, so a `---` inside "
    "a value (or text beside a delimiter) silently cuts the front matter short; other tools split "
    "by lines and read something else.",
    "Put each `---` on its own line and avoid `---` inside front-matter values (quote or reword them).",
    "description: plan --- then train", source="ours")


UNKNOWN_KEY = _rule(
    "SKL010", "unknown-front-matter-key", "error", "The front matter has a key the Agent Skills format does not define.",
    f"Only {', '.join(ALLOWED_KEYS)} are allowed; validators reject others.",
    "Remove the key, or move it under `metadata:` (a string -> string map).", "version: 1", source="skills-ref; contract §5")


NAME_MISSING = _rule(
    "SKL011", "name-missing", "error", "The front matter has no `name`.",
    "Agents identify and invoke a skill by its name.", "Add `name: <folder-name>` to the front matter.",
    "---\\ndescription: ...\\n---", source="skills-ref; contract §5")


NAME_EMPTY = _rule(
    "SKL012", "name-empty", "error", "`name` is empty or not a string.",
    "An empty or structured name cannot identify the skill.", "Set `name:` to the skill's folder name.",
    "name:", source="skills-ref; contract §5")


NAME_TOO_LONG = _rule(
    "SKL013", "name-too-long", "error", f"`name` is longer than {MAX_NAME_LENGTH} characters.",
    f"The format limits names to {MAX_NAME_LENGTH} characters.", "Shorten the name (and rename the folder to match).", source="skills-ref; contract §5")


NAME_NOT_LOWERCASE = _rule(
    "SKL014", "name-not-lowercase", "error", "`name` has uppercase letters.",
    "Skill names are lowercase so that they match folder names on every file system.",
    "Use lowercase letters, digits and hyphens (and rename the folder to match).", "name: Plan-Training", source="skills-ref; contract §5")


NAME_BAD_CHARACTERS = _rule(
    "SKL015", "name-invalid-characters", "error", "`name` has characters other than letters, digits and hyphens.",
    "Names become folder names and command names; spaces, underscores and punctuation break them.",
    "Use only lowercase letters, digits and single hyphens, e.g. `plan-training`.", "name: plan_training", source="skills-ref; contract §5")


NAME_HYPHENS = _rule(
    "SKL016", "name-hyphens", "error", "`name` starts or ends with a hyphen or contains `--`.",
    "The format forbids leading, trailing and consecutive hyphens.", "Use single hyphens between words.",
    "name: plan--training", source="skills-ref; contract §5")


NAME_FOLDER_MISMATCH = _rule(
    "SKL017", "name-folder-mismatch", "error", "`name` differs from the skill's folder name.",
    "Agents load a skill by folder and refer to it by name; the format requires both to be the same.",
    "Make `name:` equal to the folder name, or rename the folder.", ".agents/skills/plan/ with name: plan-training", source="skills-ref; contract §5")


DESCRIPTION_MISSING = _rule(
    "SKL018", "description-missing", "error", "The front matter has no `description`.",
    "Agents decide when to use a skill from its description alone.",
    "Add `description:` saying what the skill does and when to use it.", source="skills-ref; contract §5")


DESCRIPTION_EMPTY = _rule(
    "SKL019", "description-empty", "error", "`description` is empty or not a string.",
    "An empty description gives the agent no reason to load the skill.",
    "Write one or two sentences: what the skill does and when to use it.", "description: ''", source="skills-ref; contract §5")


DESCRIPTION_TOO_LONG = _rule(
    "SKL020", "description-too-long", "error", f"`description` is longer than {MAX_DESCRIPTION_LENGTH} characters.",
    "Descriptions are always in the agent's context; the format caps their length.",
    "Shorten the description; move detail into the body or references/.", source="skills-ref; contract §5")


COMPATIBILITY_NOT_STRING = _rule(
    "SKL021", "compatibility-not-string", "error", "`compatibility` is a list or mapping, not a string.",
    "The format defines compatibility as free text.", "Write compatibility as one string.",
    "compatibility:\\n  - python>=3.10", source="skills-ref; contract §5")


COMPATIBILITY_TOO_LONG = _rule(
    "SKL022", "compatibility-too-long", "error", f"`compatibility` is longer than {MAX_COMPATIBILITY_LENGTH} characters.",
    f"The format caps compatibility at {MAX_COMPATIBILITY_LENGTH} characters.", "Shorten it to the essentials.", source="skills-ref; contract §5")


METADATA_NOT_MAP = _rule(
    "SKL023", "metadata-not-string-map", "warning", "`metadata` is not a map of string keys to string values.",
    "The format defines metadata as string -> string; tools flatten or drop anything else "
    "(the reference validator turns nested values into their Python text).",
    "Write `metadata:` as indented `key: value` lines with plain text values.", "metadata:\\n  tags:\\n    - a", source="contract §5")


BODY_TOO_LONG = _rule(
    "SKL024", "body-too-long", "warning", f"The SKILL.md body is longer than {MAX_BODY_LINES} lines.",
    "The whole body is loaded into the agent's context when the skill is used; long bodies crowd it out.",
    "Move detailed material into references/ files and link to them from the body.", source="contract §5")


LINK_TARGET_MISSING = _rule(
    "SKL025", "link-target-missing", "warning", "A relative link in SKILL.md points to a file that does not exist.",
    "Agents follow these links to load references on demand; a dead link loses that material. The skill "
    "is still valid (the Agent Skills format does not check links), so this is advice. `{baseDir}` is "
    "read as the skill folder; footnotes `[^1]: ...` are not links.",
    "Create the linked file or fix the link's path (relative to the skill folder).",
    "[configs](references/config.md) with no references/config.md", source="contract §5")


LINK_ESCAPES_SKILL = _rule(
    "SKL026", "link-escapes-skill", "warning",
    "A link in SKILL.md points outside the skill's folder (and not into a sibling skill).",
    "A skill is copied and installed as one folder; files outside it may not be there for the agent. "
    "Links into a sibling skill (`../other-skill/SKILL.md`) are fine when that skill exists beside it.",
    "Copy the material into the skill (e.g. references/) and link to that copy.", "[x](../../docs/notes.md)", source="ours")


FRONT_MATTER_LINE_SEPARATOR = _rule(
    "SKL034", "front-matter-unicode-line-break", "warning",
    "The front matter holds U+0085, U+2028 or U+2029 (Unicode line breaks).",
    "YAML 1.1 and 1.2 parsers disagree on whether these characters end a line, so tools may read "
    "different keys and values from the same text; our verdict can differ from the reference validator's.",
    "Replace the character with a normal newline or a space.", "description: plan\u2028train", source="ours")


# --- the workspace's wiring (ours only) -------------------------------------------------------------
BUNDLED_SKILL_MISSING = _rule(
    "SKL027", "bundled-skill-missing", "error", "A skill the workspace must bundle is missing from .agents/skills/.",
    "The bundled skills walk agents through plan -> rollout -> evaluate -> debug -> train; without "
    "one that stage has no guidance.",
    "Run `osmosis doctor --fix` to restore it from the installed bundle.", ".agents/skills/debug-rollouts/ deleted",
    fixable=True, source="ours")


CLAUDE_LINK_MISSING = _rule(
    "SKL028", "claude-link-missing", "error", "A skill in .agents/skills/ has no .claude/skills/<name> link.",
    "Claude Code loads skills from .claude/skills/; without the link it never sees the skill.",
    "Run `osmosis doctor --fix`, or `ln -s ../../.agents/skills/<name> .claude/skills/<name>`.", fixable=True, source="contract §1")


CLAUDE_LINK_ABSOLUTE = _rule(
    "SKL029", "claude-link-absolute", "error", "A .claude/skills/<name> link uses an absolute path.",
    "An absolute link breaks in every other clone of the repository (and in CI).",
    "Run `osmosis doctor --fix`, or relink: `ln -sfn ../../.agents/skills/<name> .claude/skills/<name>`.",
    fixable=True, source="contract §1")


CLAUDE_LINK_BROKEN = _rule(
    "SKL030", "claude-link-broken", "error", "A .claude/skills/<name> link points to nothing.",
    "Claude Code finds no skill behind a broken link.",
    "Run `osmosis doctor --fix` to relink it to ../../.agents/skills/<name>, or remove the link.", fixable=True, source="contract §1")


CLAUDE_LINK_WRONG_TARGET = _rule(
    "SKL031", "claude-link-wrong-target", "error",
    "A .claude/skills/<name> entry is not a link to .agents/skills/<name>.",
    ".agents/skills/ is the canonical copy; a link elsewhere shows Claude Code a different skill.",
    "Relink it: `ln -sfn ../../.agents/skills/<name> .claude/skills/<name>`.", source="contract §1")


CLAUDE_SKILL_COPY = _rule(
    "SKL032", "claude-skill-copy", "warning", "A .claude/skills/<name> entry is a copied folder, not a link.",
    "A copy drifts from .agents/skills/, so different agents follow different instructions.",
    "Keep the skill in .agents/skills/<name>, delete the copy, and link it: "
    "`ln -s ../../.agents/skills/<name> .claude/skills/<name>`.", source="contract §1")


SKILL_PATH_ESCAPES = _rule(
    "SKL033", "skill-path-escapes-workspace", "error", "A skill folder or link leads outside the workspace.",
    "The platform and CI see only the repository; anything outside it is missing there. "
    "Checks never follow paths out of the workspace.",
    "Move the skill into .agents/skills/ and use a relative link inside the repository.", source="ours")
