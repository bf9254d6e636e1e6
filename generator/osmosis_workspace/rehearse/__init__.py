"""`osmosis rehearse`: run each rollout end to end with the SDK's own runner and a scripted model.

The one wing that executes workspace code. `doctor` and `validate` never import it.

- `plan.py`: what to rehearse (rollouts, their eval configs, their local rows) read from the workspace;
- `cases.py`: the rehearsal dataset, three passes (gold, wrong, empty) per source row and the probes
  (`probe_cases.py`), each row carrying a marker the scripted model reads back;
- `probes.py`: every verdict and probe as one table (name, what is sent, threshold, hint);
- `answers.py`: what the scripted model says (the answer in the format the prompt asks for, a judge's score);
- `scripted_model.py`: the OpenAI-compatible server on 127.0.0.1 (chat completions, streamed or not,
  tool calls, `/v1/models`);
- `child_env.py`: the environment the SDK and the rollout get (an allowlist of the user's; model keys
  and base URLs replaced);
- `children.py`: every child in its own process group, the group ended whole (timeout, Ctrl-C, exit);
- `runner.py`: finds the SDK's `osmosis`, runs `osmosis eval run`, stops every child on Ctrl-C;
- `preflight.py`: a Harbor rollout's `uv sync` and the SDK's import of its entrypoint;
- `run_results.py`: reads the SDK's `index.jsonl`, `logs.txt` and the rollout's tracebacks;
- `verdicts.py`: the base verdicts (runs, finite, in range, gold rewarded, discriminates, not constant,
  timings); `probe_verdicts.py`: each probe against its row's gold and wrong rewards;
- `environment.py`: a rollout's lock and synced `.venv` against the known-bad table, before and after its sync;
- `render.py`: text and JSON output;
- `affected.py` + `selection.py`: `--changed REF` / `--list`, the rollouts a git change touches and why;
- `merge.py`: `--merge DIR`, a CI matrix's verdicts as one summary, annotations and exit code.
"""
