"""The datasets family's file rules, DAT001-DAT025 (the checks that use them: datasets.py; the data
checks, DAT026-DAT030, are in data_rules.py)."""

from __future__ import annotations

from osmosis_workspace.check.registry import family_rules

FAMILY = "datasets"
MIN_ROWS = 4  # the platform's minimum rows per dataset

_rule = family_rules(FAMILY)


UNKNOWN_FORMAT = _rule(
    "DAT001", "dataset-unknown-format", "error",
    summary="The dataset's extension is not one the platform reads (.jsonl, .csv, .parquet, in any letter case); a .json file included, and `data/<name>.<other>` or an extensionless `data/<name>` when a config names the platform dataset <name> and data/ holds no readable file of it (else such a name is only DAT020's warning).",
    why="The platform picks the parser by extension; any other file, a JSON array (.json) too, is rejected at upload.",
    fix="Convert the file to JSON lines (.jsonl: one object a line), CSV or parquet and name it so.",
    example="data/train.json   # convert: jq -c '.[]' data/train.json > data/train.jsonl",
    source="osmosis_ai/platform/constants.py",
)  # fmt: skip
UNREADABLE = _rule(
    "DAT002", "dataset-unreadable", "error",
    summary="The dataset file cannot be opened or read: not a regular file, no permission, or a link that never reaches a file (a symlink loop, a dangling link).",
    why="A file the checker cannot read, the platform cannot read either; a link in data/ that leads nowhere is a dataset that is not there.",
    fix="Check that the path is a regular file and readable (permissions); replace a looping or dangling link with the file itself.",
    example="data/loop.jsonl -> loop.jsonl   # a link to itself",
    source="osmosis_ai/platform/cli/dataset.py",
)  # fmt: skip
ENCODING = _rule(
    "DAT003", "dataset-encoding", "error",
    summary="The file has bytes that are not UTF-8 (reported by line and column).",
    why="Datasets are read as UTF-8; a stray Latin-1 or UTF-16 byte fails the upload or garbles a prompt.",
    fix="Re-save the file as UTF-8 (e.g. `iconv -f latin1 -t utf-8`), or fix the reported bytes.",
    example='{"user_prompt": "caf\\xe9"}   # a Latin-1 byte',
    source="osmosis_ai/platform/cli/dataset.py",
)  # fmt: skip
MALFORMED = _rule(
    "DAT004", "dataset-malformed", "error",
    summary="A line, element or record that does not parse in the file's format (JSON syntax, CSV field count, a broken parquet footer); a warning for what only the platform's lenient reader accepts: `NaN`/`Infinity` in JSON lines, CSV text after a closing quote or a quote never closed.",
    why="The platform's reader stops at the first such row, so the dataset fails to upload or the run fails to start. What it reads leniently (Python's json and non-strict csv) other tools reject or read differently, so the file does not travel.",
    fix="Fix the syntax at the reported line and column.",
    example='{"user_prompt": "2 * 3", "ground_truth": "6",}   # trailing comma',
    source="osmosis_ai/platform/cli/dataset.py",
)  # fmt: skip
NOT_OBJECT = _rule(
    "DAT005", "dataset-row-not-object", "error",
    summary="A JSON lines row or .json array element is not an object (an array, a string, a number...).",
    why="Each row must map column names to values; anything else has no `user_prompt` to train on.",
    fix="Write each row as one JSON object with the dataset's columns.",
    example='["2 * 3", "6"]',
    source="osmosis_ai/platform/cli/dataset.py",
)  # fmt: skip
MISSING_COLUMN = _rule(
    "DAT006", "dataset-missing-column", "error",
    summary="A required column is missing: `user_prompt` and `ground_truth` (or `label`), unless the file has a `metadata` column (metadata mode); near misses such as `User_Prompt` are named.",
    why="Column names are case-sensitive: the platform does not find `User_Prompt`, so rows have no prompt or no reference answer for the grader.",
    fix="Add the column, or rename the column that holds its values (the finding names a near miss such as `User_Prompt`) to the exact name.",
    example='{"User_Prompt": "2 * 3", "ground_truth": "6"}',
    source="osmosis_ai/platform/cli/dataset.py",
)  # fmt: skip
AMBIGUOUS_LABEL = _rule(
    "DAT007", "dataset-ambiguous-label", "warning",
    summary="Both `ground_truth` and its alias `label` are columns.",
    why="The platform accepts it and gives the grader `ground_truth` (`label` only where that is empty); with two answer columns a reader of the file cannot tell which one counts.",
    fix="Keep one of the two columns (prefer `ground_truth`).",
    example='{"user_prompt": "2 * 3", "ground_truth": "6", "label": "6"}',
    source="ours",
)  # fmt: skip
NOT_STRING = _rule(
    "DAT008", "dataset-value-not-string", "warning",
    summary="A `user_prompt`, `ground_truth`, `label` or `system_prompt` value is not a string (a number, a list, a null `system_prompt`...); a null prompt or answer is DAT009.",
    why="The platform accepts it and turns the value into Python's text of it (`2.50` becomes '2.5', a list '[1, 2]', true 'True'), which may not be the text the grader compares with; a null `system_prompt` sends the row without a system message.",
    fix='Quote the value as a string: "ground_truth": "6", not 6.',
    example='{"user_prompt": "2 * 3", "ground_truth": 6}',
    source="ours",
)  # fmt: skip
EMPTY_VALUE = _rule(
    "DAT009", "dataset-empty-value", "error",
    summary="A `user_prompt`, `ground_truth` or `label` value is empty or null (one that is only whitespace is DAT024).",
    why="The platform reads an empty or null prompt or answer as missing and fails the run at that row.",
    fix="Fill in the value, or drop the row.",
    example='{"user_prompt": "", "ground_truth": "6"}',
    source="osmosis_ai/eval/local/dataset.py",
)  # fmt: skip
DIVERGENT_KEYS = _rule(
    "DAT010", "dataset-inconsistent-columns", "error",
    summary="A row's set of keys differs from the first row's (the first such row is shown, the rest counted).",
    why="Every row of a dataset has the same columns; the platform infers them from the first rows and rejects or mis-reads the rest.",
    fix="Give every row the same keys (add the missing ones, drop or rename the extra ones).",
    example='{"user_prompt": "2 * 3", "ground_truth": "6"}\n{"user_prompt": "2 * 4", "answer": "8"}',
    source="osmosis_ai/platform/cli/dataset.py",
)  # fmt: skip
TOO_FEW_ROWS = _rule(
    "DAT011", "dataset-too-few-rows", "error",
    summary=f"The dataset has fewer than {MIN_ROWS} rows.",
    why=f"The platform requires at least {MIN_ROWS} rows per dataset.",
    fix=f"Add rows until there are at least {MIN_ROWS}.",
    source="osmosis_ai/platform/cli/dataset.py",
)  # fmt: skip
TOO_LARGE = _rule(
    "DAT012", "dataset-too-large", "error",
    summary="The file is larger than 5 GB.",
    why="The platform accepts at most 5 GB per dataset file.",
    fix="Split the dataset into several files, or convert it to parquet (compressed).",
    source="osmosis_ai/platform/constants.py",
)  # fmt: skip
BAD_METADATA = _rule(
    "DAT013", "dataset-metadata-invalid", "error",
    summary="In a file with a `metadata` column, a row's metadata is not a non-empty JSON object (or JSON text of one), holds a nested empty object or an integer beyond 64 bits, or gives a key another JSON type than earlier rows did.",
    why="Metadata reaches the workflow and grader as `ctx.metadata`; the platform stores it as one typed table, so it rejects what that table cannot hold.",
    fix='Give every row an object with at least one key, the same type per key in every row (null aside), no `{}` inside and integers within 64 bits: "metadata": {"id": 7}. In CSV, the cell holds the JSON text.',
    example='{"metadata": {"id": 7}}\n{"metadata": {"id": "seven"}}',
    source="osmosis_ai/platform/cli/dataset.py",
)  # fmt: skip
PARQUET_UNCHECKED = _rule(
    "DAT014", "dataset-parquet-unchecked", "warning",
    summary="A parquet dataset's columns were not checked, or not all of its row groups: pyarrow is not installed, the file's footer is over 16 MB, or it has more than 20,000 row groups.",
    why="Parquet is a binary format: without pyarrow only the file's magic bytes can be checked; a huge footer would take gigabytes to parse.",
    fix="pip install 'osmosis-workspace[parquet]' (adds pyarrow) and check again; write big files with fewer, larger row groups.",
    source="osmosis_ai/platform/cli/dataset.py",
)  # fmt: skip
BLANK_LINE = _rule(
    "DAT015", "dataset-blank-line", "warning",
    summary="A JSON lines file has a blank line: the platform skips it (in a CSV it is DAT022, an error).",
    why="Other JSON lines readers may stop at one, and a blank line often marks a row lost in an edit.",
    fix="Delete the blank line (a single newline at the end of the file is fine).",
    source="osmosis_ai/platform/cli/dataset.py",
)  # fmt: skip
DUPLICATE_COLUMN = _rule(
    "DAT016", "dataset-duplicate-column", "warning",
    summary="A CSV header or parquet schema names the same column twice.",
    why="The platform accepts it and keeps the last column of that name; the other is dropped without a word, and other readers may keep a different one.",
    fix="Rename or remove one of the columns.",
    example="user_prompt,ground_truth,ground_truth",
    source="ours",
)  # fmt: skip
NO_SYSTEM_PROMPT = _rule(
    "DAT017", "dataset-no-system-prompt", "info",
    summary="The dataset has no `system_prompt` column.",
    why="It is optional, but most tasks need one: it is the system message every rollout starts with.",
    fix="Add a `system_prompt` column if the task needs instructions (such as the answer format).",
    source="ours",
)  # fmt: skip
BOM = _rule(
    "DAT018", "dataset-byte-order-mark", "warning",
    summary="The file starts with a UTF-8 byte-order mark where it does no harm yet, e.g. before a CSV column the platform does not look for (where it breaks the file, it is DAT025).",
    why="The platform reads the mark as data, here as part of the first column's name: harmless while nothing reads that column, a trap once something does.",
    fix="Save the file as UTF-8 without BOM (in Excel: 'CSV UTF-8' adds one; use another export or strip it).",
    source="osmosis_ai/platform/cli/dataset.py",
)  # fmt: skip
CSV_BLANK_LINE = _rule(
    "DAT022", "dataset-csv-blank-line", "error",
    summary="A CSV file has a blank line inside it.",
    why="The platform's CSV reader takes a blank line for a row with no fields, of the wrong width, and rejects the file.",
    fix="Delete the blank line (a single newline at the end of the file is fine).",
    source="osmosis_ai/platform/cli/dataset.py",
)  # fmt: skip
NONSTANDARD_SYNTAX = _rule(
    "DAT023", "dataset-nonstandard-syntax", "warning",
    summary="A record the platform reads but other tools may not: a CSV field quoted irregularly, or NaN / Infinity in JSON lines.",
    why="Python's csv and json modules, which the platform uses, accept these; strict readers (and other languages' JSON parsers) reject them or read other values.",
    fix="Quote the whole field and double any quote inside it; write null or a number instead of NaN / Infinity.",
    source="osmosis_ai/eval/local/dataset.py",
)  # fmt: skip
BLANK_VALUE = _rule(
    "DAT024", "dataset-blank-value", "warning",
    summary="A `user_prompt`, `ground_truth` or `label` value is only whitespace.",
    why="The platform accepts it (only an empty value is missing to it), but it gives the model nothing to answer, or the grader nothing to compare with.",
    fix="Fill in the value, or drop the row.",
    example='{"user_prompt": "   ", "ground_truth": "6"}',
    source="osmosis_ai/eval/local/dataset.py",
)  # fmt: skip
BOM_BREAKS = _rule(
    "DAT025", "dataset-bom-breaks", "error",
    summary="The file starts with a UTF-8 byte-order mark where it breaks the file: JSON lines, or a CSV whose first column the platform looks for.",
    why="The platform reads the mark as data: line 1 of a JSON lines file becomes invalid JSON, and a CSV's first column becomes '\\ufeffuser_prompt', so `user_prompt` is missing.",
    fix="Save the file as UTF-8 without BOM (in Excel: 'CSV UTF-8' adds one; use another export or strip it).",
    source="osmosis_ai/platform/cli/dataset.py",
)  # fmt: skip
OUTSIDE_WORKSPACE = _rule(
    "DAT019", "dataset-outside-workspace", "warning",
    summary="A file in data/ is a link to a file outside the workspace; it is not checked.",
    why="The platform runs the committed repository; a link out of it points at nothing there.",
    fix="Copy the file into data/ instead of linking to it (or keep large files out of data/).",
    source="ours",
)  # fmt: skip

MISNAMED = _rule(
    "DAT020", "dataset-misnamed", "warning",
    summary="A file in data/ is named nearly like a dataset (`x.jsnol`, `x.jsonl.txt`, `x.ndjson`) but not quite; the right name is suggested. Other files there (a README, notes) are not reported.",
    why="The platform picks a dataset's parser by its lower-case extension, so the file is not read as the dataset it looks like, and doctor does not check its rows either.",
    fix="Rename the file as suggested (or, if it is not a dataset, give it a name that does not look like one).",
    example="data/train.jsnol   # did you mean train.jsonl?",
    source="ours",
)  # fmt: skip

RUN_CAPPED = _rule(
    "DAT021", "dataset-findings-capped", "warning",
    summary="The data/ folder produced more dataset findings than one run reports; the files after that point were not checked, and their count is given.",
    why="A report of hundreds of thousands of findings is unreadable and costs memory in CI; the first ones show what to fix.",
    fix="Fix the findings shown (often one cause repeated across files), then run doctor again to see the rest.",
    source="ours",
)  # fmt: skip
