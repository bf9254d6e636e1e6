"""The scripted model: an OpenAI-compatible server on 127.0.0.1 that answers from a script, free and offline.

`POST /v1/chat/completions` (also without `/v1`), `stream` true or false, tool calls in both;
`GET /v1/models`. The SDK's LiteLLM bridge and a grader's own OpenAI client both reach it through the
base-URL variables `child_env.py` sets. `Script` plays the three passes of a `Rehearsal`;
`ScriptedModel` takes any ``reply(body) -> message`` function, so tests can script tool calls.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from osmosis_workspace.rehearse.answers import format_answer, judge_reply
from osmosis_workspace.rehearse.cases import Case, Rehearsal, prompt_key, text_of

MODEL_ID = "osmosis-rehearse-scripted"
MAX_BODY = 32 << 20  # a chat request past this is not one a rollout sends


def message_text(message: Any) -> str:
    """A chat message's text, whether content is a string or a list of parts."""
    if not isinstance(message, dict):
        return ""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return ""


class Script:
    """Plays gold, wrong, empty and the probes for the cases of a rehearsal.

    A request whose user message *is* a rehearsed prompt, with no answer of ours in it yet, starts a
    rollout: it gets that prompt's next case (``Rehearsal.queue``: the order the SDK dispatches rows
    in), its answer in the format the instructions ask for. A request that carries an answer we gave
    continues that rollout (a tool loop), unless it asks for a score after it: then a grader is calling
    a model itself (an LLM judge), and it gets the top of the judge's scale for a gold answer (and its
    copies), the bottom otherwise, so the rehearsal tests the judge's plumbing, not its taste. Anything
    else (the SDK's model preflight) gets "ok".
    """

    def __init__(self, rehearsal: Rehearsal):
        self.rehearsal = rehearsal
        self.calls: Counter[str] = Counter()       # policy | judge | unmarked
        self.cases_seen: set[int] = set()
        self.sent: dict[int, str] = {}             # case number -> the answer the policy got (the probes show it)
        self._queue = rehearsal.queue()
        self._given: dict[str, int] = {}           # prompt key -> cases handed out
        self._by_text: dict[str, list[int]] = {}   # an answer we gave -> the cases it went to
        self._latest: dict[str, int] = {}          # prompt key -> the case whose answer went out last
        self._unjudged: dict[str, list[int]] = {}  # prompt key -> cases answered and not yet judged, in order
        self._gold_texts: set[tuple[str, str]] = set()  # (prompt key, a gold answer as sent, stripped)
        self._lock = threading.Lock()

    def __call__(self, body: dict) -> dict:
        messages = [m for m in body.get("messages") or [] if isinstance(m, dict)]
        prompt_texts = [message_text(m) for m in messages if m.get("role") in ("system", "developer", "user")]
        instructions = "\n".join(prompt_texts)
        ours = self._answered(messages)
        if ours is not None:
            case, later_user = ours
            if later_user and judge_reply(instructions, top=case.top) is not None:
                return self._judge(case, instructions)
            return self._policy(case, instructions, body)
        users = [prompt_key(message_text(m)) for m in messages if m.get("role") == "user"]
        key = next((u for u in users if u in self._queue), None)
        if key is not None:
            # a judge that passes the question on as its own user message shows the answer elsewhere
            rest = "\n".join(t for t in prompt_texts if prompt_key(t) != key)
            judged = self._quoted(rest) if judge_reply(instructions, top=False) is not None else None
            if judged is not None:
                return self._judge(judged, instructions)
            return self._policy(self._next_case(key), instructions, body)
        judged = self._quoted(instructions)
        if judged is not None or judge_reply(instructions, top=False) is not None:
            return self._judge(judged, instructions)   # no answer of ours quoted: the empty pass, scored at the bottom
        self._count("unmarked", None)
        return {"content": "ok"}

    def _next_case(self, key: str) -> Case:
        with self._lock:
            numbers = self._queue[key]
            given = self._given.get(key, 0)
            self._given[key] = given + 1
            return self.rehearsal.cases[numbers[min(given, len(numbers) - 1)]]

    def _policy(self, case: Case, instructions: str, body: dict) -> dict:
        self._count("policy", case.number)
        content = policy_answer(case, instructions, _token_limit(body))
        with self._lock:
            self._latest[prompt_key(case.prompt)] = case.number
            if case.number not in self.sent:   # a case waits for its judge once, however often it is asked
                self._unjudged.setdefault(prompt_key(case.prompt), []).append(case.number)
            self.sent.setdefault(case.number, content)
            if case.top and content.strip():
                self._gold_texts.add((prompt_key(case.prompt), content.strip()))
            if content.strip():
                self._by_text.setdefault(content.strip(), []).append(case.number)
        return {"content": content}

    def _judge(self, case: Case | None, instructions: str) -> dict:
        self._count("judge", case.number if case else None)
        # an answer that reads as the gold once stripped (a judge strips it) is the gold to a judge
        top = bool(case and (case.top or (prompt_key(case.prompt), self.sent.get(case.number, "").strip()) in self._gold_texts))
        verdict = judge_reply(instructions, top=top)
        return {"content": verdict if verdict is not None else format_answer(instructions, case.answer if case else "")}

    def _answered(self, messages: list[dict]) -> tuple[Case, bool] | None:
        """The case whose answer an assistant message of ``messages`` carries, and whether a user spoke after it."""
        for index in range(len(messages) - 1, -1, -1):
            message = messages[index]
            if message.get("role") != "assistant":
                continue
            numbers = self._by_text.get(message_text(message).strip())
            if numbers:
                later_user = any(m.get("role") == "user" for m in messages[index + 1:])
                return self.rehearsal.cases[numbers[-1]], later_user
        return None

    def _quoted(self, text: str) -> Case | None:
        """The case a judge's prompt is about. A judge quotes the question, so the row is the one whose
        prompt it holds; the case is the one of that row's answers not yet judged that best explains the
        prompt's text (``_explains``): rows of one prompt run side by side, so order alone can't say."""
        with self._lock:
            keys = [k for k in self._latest if k and k in text]
            if keys:
                key = max(keys, key=len)
                waiting = self._unjudged.get(key, [])
                if not waiting:   # every answer of the row judged: a judge asked twice scores the latest again
                    return self.rehearsal.cases[self._latest[key]]
                chosen = self._explains(text, key, waiting)
                waiting.remove(chosen)
                return self.rehearsal.cases[chosen]
            found = [t for t in self._by_text if len(t) >= 2 and t in text]
        if not found:
            return None
        numbers = self._by_text[max(found, key=len)]
        return self.rehearsal.cases[numbers[-1]]

    def _explains(self, text: str, key: str, waiting: list[int]) -> int:
        """Which waiting case's answer ``text`` (a judge's prompt) scores.

        Each hypothesis is a case's answer (as sent, or unformatted) shown after the question, with or
        without a reference (the row's label). It predicts how often the question, the references and
        every waiting answer occur; one that predicts more occurrences than ``text`` has is impossible (a
        judge may add text, such as a rubric, never remove it). Of the possible ones, the one explaining
        the most text wins, the earlier case on a tie. Counting, not searching, tells "the gold quoted as
        the reference" from "the gold as the answer", and an echo of the question from the question.
        None possible (a grader that cut or rewrote the answer): the first waiting case."""
        # the labels of the waiting answers' rows (two rows may share a prompt), in the gold column and the ground truth
        references = [r for r in dict.fromkeys(text_of(self.rehearsal.rows[n].get(c)).strip() for n in waiting
                                               for c in (self.rehearsal.gold_source, "ground_truth")) if r]
        forms = {n: [f for f in dict.fromkeys((self.sent.get(n, "").strip(), self.rehearsal.cases[n].answer.strip())) if f]
                 for n in waiting}
        pieces = [p for p in dict.fromkeys([key, *references, *(f for fs in forms.values() for f in fs)]) if p]
        seen = {p: text.count(p) for p in pieces}
        best: tuple[int, int] | None = None
        for n in waiting:
            for form in forms[n] or [""]:
                for reference in [None, *references]:
                    shown = "\n".join(p for p in (key, reference, form) if p)
                    predicted = {p: shown.count(p) for p in pieces}
                    if any(predicted[p] > seen[p] for p in pieces):
                        continue
                    explained = sum(predicted[p] * len(p) for p in pieces)
                    if best is None or explained > best[0]:
                        best = (explained, n)
        return best[1] if best else waiting[0]

    def _count(self, kind: str, number: int | None) -> None:
        with self._lock:
            self.calls[kind] += 1
            if number is not None:
                self.cases_seen.add(number)


def _token_limit(body: dict) -> int | None:
    for key in ("max_completion_tokens", "max_tokens", "max_output_tokens"):
        value = body.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value
    return None


def policy_answer(case: Case, instructions: str, token_limit: int | None = None) -> str:
    """What the policy says for ``case``: its answer in the prompt's format, after its prefix (cut to
    about ``token_limit`` tokens at 3 characters each), or as is when the case is raw."""
    if case.raw:
        return case.answer
    body = format_answer(instructions, case.answer)
    prefix = case.prefix
    if prefix and token_limit is not None:
        room = max(0, token_limit * 3 - len(body))
        prefix = prefix[:room].rsplit(" ", 1)[0] + "\n\n" if room < len(prefix) else prefix
    return prefix + body


def _completion(body: dict, message: dict, serial: int) -> dict:
    message = {"role": "assistant", "content": message.get("content"), **{k: v for k, v in message.items() if k != "content"}}
    return {
        "id": f"chatcmpl-rehearse-{serial}", "object": "chat.completion", "created": int(time.time()),
        "model": str(body.get("model") or MODEL_ID),
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if message.get("tool_calls") else "stop"}],
        "usage": _usage(message),
    }


def _usage(message: dict) -> dict:
    completion = max(1, len(str(message.get("content") or "")) // 4)
    return {"prompt_tokens": 10, "completion_tokens": completion, "total_tokens": 10 + completion}


def _stream_chunks(body: dict, message: dict, serial: int) -> list[dict]:
    """The same answer as server-sent chunks: role, content, tool calls (indexed), finish, usage."""
    base = {"id": f"chatcmpl-rehearse-{serial}", "object": "chat.completion.chunk", "created": int(time.time()),
            "model": str(body.get("model") or MODEL_ID)}

    def chunk(delta: dict, finish: str | None = None) -> dict:
        return {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    chunks = [chunk({"role": "assistant", "content": ""})]
    if message.get("content"):
        chunks.append(chunk({"content": message["content"]}))
    for index, call in enumerate(message.get("tool_calls") or []):
        chunks.append(chunk({"tool_calls": [{"index": index, **call}]}))
    chunks.append(chunk({}, "tool_calls" if message.get("tool_calls") else "stop"))
    options = body.get("stream_options")
    if isinstance(options, dict) and options.get("include_usage"):
        chunks.append({**base, "choices": [], "usage": _usage(message)})
    return chunks


class ScriptedModel:
    """The server; a context manager that starts it on an ephemeral port and stops it on exit."""

    def __init__(self, reply: Callable[[dict], dict], host: str = "127.0.0.1", port: int = 0):
        self.reply = reply
        self.errors: list[str] = []
        self.authorizations: set[str] = set()   # the bearer values seen (the secrets test reads them)
        self.requests = 0
        model = self
        self._serial_lock = threading.Lock()

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                if self.path.rstrip("/") in ("/v1/models", "/models"):
                    self._json(200, {"object": "list", "data": [{"id": MODEL_ID, "object": "model", "owned_by": "osmosis"}]})
                else:
                    self._json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})

            def do_POST(self) -> None:
                model._note_auth(self.headers.get("Authorization") or self.headers.get("api-key") or "")
                path = self.path.split("?", 1)[0].rstrip("/")
                length = int(self.headers.get("Content-Length") or 0)
                if length > MAX_BODY:
                    self._json(413, {"error": {"message": "request too large", "type": "invalid_request_error"}})
                    return
                raw = self.rfile.read(length)
                if path not in ("/v1/chat/completions", "/chat/completions"):
                    self._json(404, {"error": {"message": f"the scripted model serves chat completions only, not {path}",
                                               "type": "not_found"}})
                    return
                try:
                    body = json.loads(raw or b"{}")
                    message = model.reply(body)
                except Exception as err:  # noqa: BLE001 - the rehearsal reports it; the server goes on
                    model.errors.append(f"{type(err).__name__}: {err}")
                    self._json(500, {"error": {"message": str(err), "type": "scripted_model_error"}})
                    return
                serial = model._next()
                if body.get("stream"):
                    self._sse(_stream_chunks(body, message, serial))
                else:
                    self._json(200, _completion(body, message, serial))

            def _json(self, status: int, payload: dict) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _sse(self, chunks: list[dict]) -> None:
                data = b"".join(f"data: {json.dumps(c)}\n\n".encode() for c in chunks) + b"data: [DONE]\n\n"
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer((host, port), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, name="scripted-model", daemon=True)

    def _next(self) -> int:
        with self._serial_lock:
            self.requests += 1
            return self.requests

    def _note_auth(self, value: str) -> None:
        if value:
            self.authorizations.add(value.removeprefix("Bearer ").strip())

    @property
    def base_url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def __enter__(self) -> ScriptedModel:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
