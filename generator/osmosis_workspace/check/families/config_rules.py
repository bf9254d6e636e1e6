"""The configs family's rules (CFG): codes, names, severities and their docs, declared in one table."""

from __future__ import annotations

from osmosis_workspace.check.registry import family_rules

FAMILY = "configs"


_rule = family_rules(FAMILY)


TOML_SYNTAX = _rule(
    "CFG001", "config-toml-syntax", "error",
    summary="The config is not valid TOML (or not UTF-8 text).",
    why="The platform cannot read the run's settings, so `osmosis eval submit` / `train submit` fail before anything runs.",
    fix="Fix the TOML at the reported line and column (strings need quotes; each key once per table).",
    example='[experiment]\nrollout = multiply   # string without quotes',
    source="osmosis_ai/platform/cli/shared_config.py",
)


MISSING_REQUIRED = _rule(
    "CFG002", "config-missing-required", "error",
    summary="A required table or key is missing (e.g. [experiment], or `model_path` in it).",
    why="The platform needs the rollout, entrypoint, model and dataset to start a run; a missing one fails the submission.",
    fix="Add the missing table or key (see `osmosis schema eval` / `osmosis schema training`).",
    example='[experiment]\nrollout = "multiply"\n# entrypoint, model_path and dataset missing',
    source="osmosis_ai/platform/cli/shared_config.py",
)


UNKNOWN_KEY = _rule(
    "CFG003", "config-unknown-key", "error",
    summary="A table or key the config format does not have (usually a typo).",
    why="A misspelt setting is not applied: the run silently uses the default instead of what you wrote.",
    fix="Rename it to a known key (see the suggestion) or remove it.",
    example='[evaluation]\nbatchsize = 8   # should be batch_size',
    source="osmosis_ai/platform/cli/shared_config.py",
)


WRONG_TYPE = _rule(
    "CFG004", "config-wrong-type", "error",
    summary="A value has the wrong type (e.g. a string where a number belongs, or a key where a table belongs).",
    why="The platform rejects the config or misreads the setting, failing the run after it was submitted.",
    fix="Give the value the documented type: numbers without quotes, strings in quotes, tables as [table].",
    example='[evaluation]\nn = "4"   # should be n = 4',
    source="osmosis_ai/platform/cli/shared_config.py",
)


OUT_OF_RANGE = _rule(
    "CFG005", "config-out-of-range", "error",
    summary="A number no run can use (lr <= 0, total_epochs, batch sizes, lengths, n or intervals < 1, rollout_top_p outside (0, 1], a negative temperature, a timeout <= 0); an unusual one that still runs is CFG028.",
    why="`osmosis eval run` refuses an eval's n < 1 itself (osmosis-ai 0.3.8 platform/cli/eval_run.py); the submit loaders pass [training], [sampling] and [checkpoints] values to the platform unchecked (shared_config.py, BackendValidatedParamSection), which refuses an impossible one only once the run is queued.",
    fix="Use a value in the documented range (see `osmosis schema`).",
    example='[sampling]\nrollout_top_p = 1.5   # must be in (0, 1]',
    source="osmosis_ai/platform/cli/eval_run.py; osmosis_ai/platform/cli/shared_config.py",
)


INVALID_VALUE = _rule(
    "CFG006", "config-invalid-value", "error",
    summary="A string value is empty (or only whitespace) or does not have the required form.",
    why="osmosis-ai's loader passes `[experiment]` strings on as written (platform/cli/shared_config.py ExperimentSection, no strip): an empty or all-whitespace model path or dataset names nothing, and the run fails once the platform (or `eval run`) looks it up.",
    fix="Give a non-empty value of the documented form.",
    example='[experiment]\nmodel_path = ""',
    source="osmosis_ai/platform/cli/shared_config.py",
)


INVALID_COMMIT_SHA = _rule(
    "CFG007", "invalid-commit-sha", "error",
    summary="`commit_sha` is not 7-40 hexadecimal digits.",
    why="The platform cannot check out a commit it cannot parse, so the run fails at start-up.",
    fix="Use a commit id from `git log --format=%h` (7-40 hex digits), or remove commit_sha to run the default branch.",
    example='[experiment]\ncommit_sha = "HEAD~1"',
    source="osmosis_ai/platform/cli/shared_config.py",
)


BRANCH_AND_COMMIT = _rule(
    "CFG008", "branch-and-commit-sha", "error",
    summary="`branch` and `commit_sha` are both set.",
    why="They name two ways to pick the code to run; the platform would have to guess which one you meant.",
    fix="Keep one: `commit_sha` pins an exact commit, `branch` follows the branch head.",
    example='[experiment]\nbranch = "main"\ncommit_sha = "1a2b3c4"',
    source="osmosis_ai/platform/cli/shared_config.py",
)


INVALID_ENV_NAME = _rule(
    "CFG009", "invalid-env-name", "error",
    summary="An [env] name is not upper case letters, digits and underscores (starting with a letter or _).",
    why="The platform passes [env] as environment variables; names outside ^[A-Z_][A-Z0-9_]*$ are rejected.",
    fix="Rename the variable, e.g. `log_level` -> `LOG_LEVEL`.",
    example='[env]\nlog-level = "info"',
    source="osmosis_ai/platform/cli/shared_config.py",
)


RESERVED_ENV_NAME = _rule(
    "CFG010", "reserved-env-name", "error",
    summary="An [env] name the platform sets itself, or one starting with _OSMOSIS_.",
    why="The platform's own value would be overwritten (or would overwrite yours), breaking the checkout or the rollout server.",
    fix="Rename the variable; reserved: GITHUB_CLONE_URL, GITHUB_TOKEN, ENTRYPOINT_SCRIPT, REPOSITORY_PATH, TRAINING_RUN_ID, ROLLOUT_NAME, ROLLOUT_PORT and _OSMOSIS_*.",
    example='[env]\nROLLOUT_PORT = "9000"',
    source="osmosis_ai/platform/cli/shared_config.py",
)


INVALID_SECRET_NAME = _rule(
    "CFG011", "invalid-secret-name", "error",
    summary="A name in [secrets] required is not upper case letters, digits and underscores starting with a letter.",
    why="The platform looks secrets up by these names; an invalid name can never be provided.",
    fix="Use the environment variable's name, e.g. OPENAI_API_KEY.",
    example='[secrets]\nrequired = ["openai-key"]',
    source="osmosis_ai/platform/cli/shared_config.py",
)


DUPLICATE_SECRET = _rule(
    "CFG012", "duplicate-secret", "error",
    summary="A name appears twice in [secrets] required.",
    why="The platform requires unique names; a duplicate is usually a copy-paste slip hiding a missing secret.",
    fix="Remove the repeated name.",
    example='[secrets]\nrequired = ["OPENAI_API_KEY", "OPENAI_API_KEY"]',
    source="osmosis_ai/platform/cli/shared_config.py",
)


UNUSUAL_VALUE = _rule(
    "CFG028", "config-value-unusual", "warning",
    summary="A number outside the range we advise, which still runs: rollout_temperature above 2, pass_threshold outside [0, 1].",
    why="osmosis-ai and the platform accept these values; they are rarely what a run means (a temperature above 2 samples near noise; a threshold outside [0, 1] passes every sample or none), so this is advice only.",
    fix="Use a value in the advised range (see `osmosis schema`), or keep it if you mean it.",
    example="[sampling]\nrollout_temperature = 3.0",
    source="ours",
)


SECRET_IN_ENV = _rule(
    "CFG013", "secret-also-in-env", "error",
    summary="A name is both a required secret and set in [env].",
    why="A secret's value must never appear in a file; and the two sources would conflict at run time.",
    fix="Remove the variable from [env]; the platform provides the secret's value.",
    example='[env]\nOPENAI_API_KEY = "..."\n[secrets]\nrequired = ["OPENAI_API_KEY"]',
    source="osmosis_ai/platform/cli/shared_config.py",
)


BENCHMARK_SECRET_IN_ENV = _rule(
    "CFG030", "benchmark-secret-also-in-env", "warning",
    summary="A benchmark config names a variable both as a required secret and in [env].",
    why="Benchmark submit accepts it (eval and training submit refuse it, CFG013), but the run then gets one of the two values, and a secret's value written in [env] sits in a committed file.",
    fix="Remove the variable from [env]; the platform provides the secret's value.",
    example='[env]\nOPENAI_API_KEY = "..."\n[secrets]\nrequired = ["OPENAI_API_KEY"]',
    source="osmosis_ai/platform/cli/benchmark_config.py",
)


MISSING_SECRETS_TABLE = _rule(
    "CFG014", "missing-secrets-table", "error",
    summary="An eval config has no [secrets] table.",
    why="Eval runs must declare the secrets the rollout reads, even when there are none, so a missing key is caught at submission rather than mid-run.",
    fix="Add `[secrets]` with `required = [...]` (an empty list when the rollout needs no secrets).",
    example="[experiment]\n...\n# no [secrets] table",
    source="osmosis_ai/platform/cli/eval_config.py",
)


INVALID_ROLLOUT_NAME = _rule(
    "CFG015", "invalid-rollout-field", "error",
    summary="`rollout` is not one path segment: osmosis-ai rejects it (a name that only breaks the naming convention is CFG029).",
    why="The platform runs rollouts/<rollout>/; a path can never match a rollout folder.",
    fix="Use the folder name under rollouts/, e.g. rollout = \"multiply\" (not \"rollouts/multiply\").",
    example='[experiment]\nrollout = "rollouts/multiply"',
    source="osmosis_ai/platform/cli/shared_config.py; ours",
)


UNCONVENTIONAL_ROLLOUT_NAME = _rule(
    "CFG029", "rollout-name-unconventional", "warning",
    summary="`rollout` is one folder name, but not one `osmosis rollout init` would make (lowercase letters, digits and hyphens; not 'default').",
    why="osmosis-ai runs such a rollout all the same; the convention keeps names valid as folders, package names and platform identifiers alike.",
    fix="Prefer lowercase letters, digits and hyphens (my-rollout), as `osmosis rollout init` makes them: rename the folder and the config's rollout together.",
    example='[experiment]\nrollout = "My_Rollout"',
    source="ours",
)


ROLLOUT_NOT_FOUND = _rule(
    "CFG016", "rollout-not-found", "error",
    summary="`rollout` names a folder that does not exist under rollouts/.",
    why="The platform runs rollouts/<rollout>/ from your default branch; a missing folder fails the run at start-up.",
    fix="Fix the name, or create the rollout (osmosis rollout new NAME).",
    example='[experiment]\nrollout = "mutliply"',
    source="osmosis_ai/platform/cli/rollout_entrypoint.py",
)


ENTRYPOINT_OUTSIDE = _rule(
    "CFG017", "entrypoint-outside-rollout", "error",
    summary="`entrypoint` is absolute or leaves rollouts/<rollout>/ (through `..` or a symlink).",
    why="The platform resolves the entrypoint inside the rollout's folder; a path outside it is not what runs (or not allowed).",
    fix="Give a path relative to rollouts/<rollout>/, e.g. entrypoint = \"main.py\".",
    example='[experiment]\nentrypoint = "../other/main.py"',
    source="osmosis_ai/platform/cli/shared_config.py",
)


ENTRYPOINT_NOT_FOUND = _rule(
    "CFG018", "entrypoint-not-found", "error",
    summary="`entrypoint` names a file that does not exist in rollouts/<rollout>/.",
    why="The platform imports the entrypoint to find the rollout's AgentWorkflow; a missing file fails every run.",
    fix="Fix the path (relative to rollouts/<rollout>/) or create the module.",
    example='[experiment]\nentrypoint = "mian.py"',
    source="osmosis_ai/platform/cli/rollout_entrypoint.py",
)


ENTRYPOINT_NOT_PYTHON = _rule(
    "CFG026", "entrypoint-not-python", "error",
    summary="`entrypoint` names a file that is not a Python module (`README.md`, `pyproject.toml`).",
    why="Submit imports the entrypoint with importlib, which finds no loader for a non-.py file (`Failed to load entrypoint module`), and `eval run` runs it with Python, which cannot parse it. Source: osmosis-ai 0.3.8 platform/cli/rollout_entrypoint.py (spec_from_file_location), eval/local/_server_bootstrap.py.",
    fix="Name the rollout's Python entrypoint, e.g. entrypoint = \"main.py\".",
    example='[experiment]\nentrypoint = "README.md"',
    source="osmosis_ai/platform/cli/rollout_entrypoint.py",
)


DATASET_NOT_FOUND = _rule(
    "CFG019", "dataset-not-found", "error",
    summary="`dataset` is a file path (`data/x.jsonl`, missing or not), not a platform dataset name.",
    why="osmosis-ai reads `dataset` as the name of a platform dataset: submit sends it to the platform as the run's dataset, and `eval run` resolves it there (resolve_platform_dataset) unless `--dataset-file` names a local file; a path is no dataset's name. Source: osmosis-ai 0.3.8 platform/cli/eval_run.py, eval/local/dataset.py, platform/cli/shared_submit.py.",
    fix="Upload the file (`osmosis dataset upload data/x.jsonl`, named after the file stem) and write dataset = \"x\"; run a local file with `osmosis eval run CONFIG --dataset-file data/x.jsonl`.",
    example='[experiment]\ndataset = "data/multiply.jsonl"',
    source="osmosis_ai/platform/cli/eval_run.py; osmosis_ai/eval/local/dataset.py",
)


ROLLOUT_WITHOUT_EVAL = _rule(
    "CFG020", "rollout-without-eval-config", "warning",
    summary="A rollout folder has no eval config naming it.",
    why="The loop is evaluate -> debug -> train; without an eval config there is no cheap way to check the rollout before paying for training.",
    fix="Add configs/eval/<rollout>.toml (copy another eval config and change `rollout`).",
    example="rollouts/search/ exists but no configs/eval/*.toml says rollout = \"search\"",
    source="ours",
)


CONFIG_NAME_MISMATCH = _rule(
    "CFG021", "config-name-mismatch", "warning",
    summary="A config's file name does not match its `rollout` (expected <rollout>.toml or <rollout>-<variant>.toml).",
    why="People and agents find a rollout's configs by name; a mismatched name usually means a copied config whose `rollout` was not updated.",
    fix="Rename the file to <rollout>.toml, or fix `rollout`.",
    example="configs/eval/search.toml with rollout = \"multiply\"",
    source="ours",
)


SCHEMA_DIRECTIVE = _rule(
    "CFG022", "schema-directive", "warning",
    summary="The config's first line is not the `#:schema` directive pointing at the workspace's schema file.",
    why="Editors (Taplo / Even Better TOML) validate configs as you type only through that first line. Only configs that opted in are checked: the workspace follows osmosis's conventions and the config runs a rollout osmosis made, already has a `#:schema` line, is a reference default.toml, or `[tool.osmosis]` is set; the platform template's own configs never asked for it.",
    fix="Make the first line `#:schema ../../.osmosis/schemas/<kind>.schema.json` (`osmosis doctor --fix` does it).",
    example='# my config   (first line, no #:schema)',
    fixable=True,
    source="ours",
)


NON_FINITE = _rule(
    "CFG023", "config-non-finite-number", "error",
    summary="A number is nan or inf.",
    why="`osmosis eval run` refuses a non-finite pass_threshold or timeout (`must be finite`, osmosis-ai 0.3.8 platform/cli/eval_run.py `_numeric`); submit sends the settings as JSON, which has no nan/inf, and no setting means anything with them. Reported before any range finding on the same value.",
    fix="Use a finite number.",
    example='[training]\nlr = nan',
    source="osmosis_ai/platform/cli/eval_run.py",
)


CONFIG_OUTSIDE = _rule(
    "CFG024", "config-outside-workspace", "error",
    summary="A config file under configs/ is a symlink to a file outside the workspace.",
    why="The platform reads configs from the repository, where the linked file is not; doctor does not read outside the workspace either.",
    fix="Copy the config into configs/eval/ or configs/training/ and commit it, instead of linking to it.",
    example="configs/eval/multiply.toml -> ~/shared/multiply.toml",
    source="ours",
)


CONFIG_NOT_TOML = _rule(
    "CFG031", "config-suffix-not-toml", "error",
    summary="A file under configs/eval/ or configs/training/ is meant as a config (a `.toml` near miss such as `.tml` or `.TOML`, or TOML with an [experiment] table) but its name does not end in `.toml`.",
    why="`osmosis eval run`, `eval submit` and `train submit` accept a config only if its name ends in exactly `.toml` (osmosis-ai 0.3.8 platform/cli/workspace_directory_contract.py `ensure_workspace_directory_config_path`), and doctor checks only those files: this one is refused and was never checked.",
    fix="Rename it to <name>.toml (lower case).",
    example="configs/eval/multiply.tml",
    source="osmosis_ai/platform/cli/workspace_directory_contract.py",
)


HARNESS_SECRET = _rule(
    "CFG025", "benchmark-harness-secret", "error",
    summary="A benchmark agent's `harness_api_key_secret` does not fit its harness (cursor-cli needs CURSOR_API_KEY; other harnesses take none).",
    why="`osmosis benchmark submit` rejects the config: the harness reads its credential under one fixed name, and other harnesses have no such credential.",
    fix='For harness = "cursor-cli" set harness_api_key_secret = "CURSOR_API_KEY" (a secret record of that name); for any other harness remove the key.',
    example='[[agents]]\nharness = "cursor-cli"\n# harness_api_key_secret missing',
    source="osmosis_ai/platform/cli/benchmark_config.py",
)



CHECKPOINT_NEVER_REACHED = _rule(
    "CFG027", "checkpoint-interval-beyond-run", "warning",
    summary="A training config's `checkpoint_save_freq` or `eval_interval` is larger than the number of steps the run has (the dataset's local copy, `total_epochs` and `rollout_batch_size` give it).",
    why="A run of N steps never reaches step N+1: with `checkpoint_save_freq` above N no checkpoint is saved, so nothing can be deployed or resumed; with `eval_interval` above N no evaluation runs during training. osmosis-ai forwards both values unchecked (platform/cli/training_config.py `_CheckpointsSection`), so nothing refuses them before the run. The steps are counted as one batch of `rollout_batch_size` prompts per step, rounded up, times `total_epochs`; the rows are those of data/<dataset>.jsonl or .parquet when the workspace has that copy.",
    fix="Lower the interval to at most the step count shown, or train longer (more rows or epochs, a smaller `rollout_batch_size`).",
    example='[training]\ntotal_epochs = 2\nrollout_batch_size = 16   # 25 rows: 2 steps per epoch, 4 in all\n\n[checkpoints]\ncheckpoint_save_freq = 10',
    source="osmosis_ai/platform/cli/training_config.py; osmosis_ai/templates/_scaffolds/rollout/training.toml.tpl",
)

_ENV_RESERVED_HINT = RESERVED_ENV_NAME.fix


_KIND_TABLES = {
    "eval": {"evaluation"},
    "training": {"training", "sampling", "checkpoints"},
    "benchmark": {"agents", "tasks", "execution", "verifier"},
}


# osmosis-ai benchmark_config.py: the harnesses with a credential of their own, and the variable it is read from.
HARNESS_KEYS = {"cursor-cli": "CURSOR_API_KEY"}


# mini-swe-agent gets a provider/endpoint model's key under this name from the platform.
MINI_SWE_AGENT_KEY = "MSWEA_API_KEY"
