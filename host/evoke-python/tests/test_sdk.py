"""The Python binding as a program uses it: the example prints the line `evoke try --json` prints, a
destructive call runs only on the confirm callback's yes, errors carry their exit class and fix, and a
reflex handed as code runs, or fails with its frames.

Run with the `evoke` package installed (.ci/test-python builds and installs it) and the workspace's
`evoke` command built (`target/debug/evoke`, or the path in EVOKE_BIN)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import unittest
from pathlib import Path

import evoke
from evoke import (
    DeclinedError,
    Evoke,
    EvokeError,
    Exit,
    NeedsPersonError,
    Question,
    Reflex,
    UsageError,
)

REPO = Path(__file__).resolve().parents[3]
EVOKE_BIN = Path(os.environ.get("EVOKE_BIN", REPO / "target" / "debug" / "evoke"))


def fixture(name: str) -> str:
    """A file of the manifests, bodies and recordings the library's tests share, in every language."""
    return (REPO / "host" / "evoke" / "tests" / "fixtures" / name).read_text(encoding="utf-8")
HOME_PROJECT = REPO / "docs" / "examples" / "home"
SDK_RECORDING = REPO / "docs" / "examples" / "sdk.recording.toml"


def evoke_command(home: Path, *args: str | Path) -> str:
    """`evoke ARGS` under `home`: its standard output, once it succeeded."""
    if not EVOKE_BIN.is_file():
        raise AssertionError(f"the evoke command is not built at {EVOKE_BIN}: run `cargo build -p evoke`")
    done = subprocess.run(
        [str(EVOKE_BIN), *map(str, args)],
        env={**os.environ, "EVOKE_HOME": str(home)},
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise AssertionError(f"evoke {args} exited {done.returncode}: {done.stderr}")
    return done.stdout


def trust(home: Path, project: Path) -> None:
    evoke_command(home, "-C", project, "trust")


def without_ms(line: str) -> str:
    """A trace's timings differ from run to run; everything else in the line must not."""
    return re.sub(r'"ms":\d+', '"ms":0', line)


def temp_dir(test: unittest.TestCase) -> Path:
    """A directory removed when `test` ends."""
    made = tempfile.TemporaryDirectory()
    test.addCleanup(made.cleanup)
    return Path(made.name)


class Answers:
    """Says one answer to every confirm and counts the confirms; `present` says whether anyone is there."""

    def __init__(self, yes: object, present: bool = True) -> None:
        self.yes = yes
        self.present = present
        self.asked: list[Question] = []

    def confirm(self, question: Question) -> object:
        self.asked.append(question)
        return self.yes

    def ask(self, missing: dict) -> None:
        return None


WIPE = fixture("wipe.toml")

# Leaves a mark for each run, so a test sees whether the body ran.
WIPE_BODY = fixture("wipe.mjs")

WIPE_RECORDING = fixture("wipe-recording.toml")


def wipe(test: unittest.TestCase) -> tuple[Path, Path, Evoke]:
    """A project with a destructive reflex, trusted in a home of its own, opened by the binding."""
    root, home = temp_dir(test), temp_dir(test)
    files = {
        "evoke.toml": '[reflexes]\nwipe = "reflexes/wipe"\n',
        "reflexes/wipe/reflex.toml": WIPE,
        "reflexes/wipe/wipe.mjs": WIPE_BODY,
        "recording.toml": WIPE_RECORDING,
    }
    for relative, text in files.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text)
    trust(home, root)
    return root, home, Evoke.open(root, recording=root / "recording.toml", home=home)


GREET = """reflex = 1
description = "Greet a person by name."
effect = "read"
confirm = "Greet {who}?"

[args.who]
ask = "Who should be greeted?"
options.dana = "Dana, next door."
options.sam = "Sam, upstairs."

[examples]
"say hello to dana" = { who = "dana" }
"""

GREET_RECORDING = """id = "replay"

[gate]
route = 0.5
fits  = 0.3
read  = 0.6
write = 0.8

[answers."say hello to dana"]
route        = { greet = 0.97, none = 0.03 }
"fits.greet" = { yes = 0.95 }
"greet.who"  = { dana = 0.97, sam = 0.02, unstated = 0.01 }

[answers."say hello"]
route        = { greet = 0.97, none = 0.03 }
"fits.greet" = { yes = 0.95 }
"greet.who"  = { unstated = 0.96, dana = 0.02, sam = 0.02 }
"""

# The wipe project's answers with the code reflex `greet` beside its own.
BESIDE_RECORDING = """id = "replay"

[gate]
route = 0.5
fits  = 0.3
read  = 0.6
write = 0.8

[answers."erase the work notes"]
route         = { wipe = 0.97, greet = 0.01, none = 0.02 }
"fits.wipe"   = { yes = 0.95 }
"fits.greet"  = { yes = 0.01 }
"wipe.folder" = { work = 0.97, home = 0.02, unstated = 0.01 }

[answers."say hello to dana"]
route        = { greet = 0.97, wipe = 0.01, none = 0.02 }
"fits.greet" = { yes = 0.95 }
"fits.wipe"  = { yes = 0.01 }
"greet.who"  = { dana = 0.97, sam = 0.02, unstated = 0.01 }
"""


def broken_lamp(call: dict) -> str:
    raise ValueError(f"no lamp for {call['args']['who']}")


class TheExample(unittest.TestCase):
    def test_the_example_prints_the_line_evoke_try_prints_then_runs_it(self) -> None:
        home = temp_dir(self)
        trust(home, HOME_PROJECT)
        example = subprocess.run(
            [sys.executable, str(REPO / "docs" / "examples" / "sdk.py")],
            env={**os.environ, "EVOKE_HOME": str(home)},
            capture_output=True,
            text=True,
        )
        self.assertEqual(example.returncode, 0, example.stderr)
        lines = example.stdout.splitlines()
        self.assertEqual(len(lines), 2, example.stdout)
        tried = evoke_command(
            home, "-C", HOME_PROJECT, "--recording", SDK_RECORDING, "try", "--json", "turn on the kitchen lights"
        )
        tried = without_ms(tried.rstrip("\n"))
        # The same object byte for byte, with `values` after it: each argument as the body receives it.
        expected = tried.removesuffix("}") + ',"values":{"room":"kitchen","state":"on"}}'
        self.assertEqual(without_ms(lines[0]), expected)
        self.assertTrue(lines[0].startswith('{"input":"turn on the kitchen lights","outcome":"run","reflex":"lights"'))
        self.assertEqual(lines[1], "kitchen lights on")

    def test_a_decision_is_the_line_evoke_try_prints_and_runs_through_the_person(self) -> None:
        home = temp_dir(self)
        trust(home, HOME_PROJECT)
        opened = Evoke.open(HOME_PROJECT, recording=SDK_RECORDING, home=home)
        decision = opened.decide("turn on the kitchen lights")
        tried = evoke_command(
            home, "-C", HOME_PROJECT, "--recording", SDK_RECORDING, "try", "--json", "turn on the kitchen lights"
        )
        line = json.loads(decision.json)
        self.assertEqual(line.pop("values"), {"room": "kitchen", "state": "on"})
        self.assertEqual(without_ms(json.dumps(line)), without_ms(json.dumps(json.loads(tried))))
        self.assertEqual(
            (decision.outcome, decision.reflex, decision.call, decision.effect),
            ("run", "lights", 'lights room="kitchen" state="on"', "write"),
        )
        self.assertEqual(decision.values, {"room": "kitchen", "state": "on"})
        # The recording's confidence clears the write bar: it runs without a confirm.
        person = Answers(yes=True)
        ran = opened.run(decision, person)
        self.assertEqual((ran.succeeded, ran.text, ran.failure, len(person.asked)), (True, "kitchen lights on", None, 0))
        self.assertEqual(ran.data, {"room": "kitchen", "on": True, "percent": 100})
        self.assertEqual(json.loads(ran.json)["result"]["text"], "kitchen lights on")
        self.assertEqual(opened.why(), evoke_command(home, "-C", HOME_PROJECT, "why"))


class Destructive(unittest.TestCase):
    def test_a_destructive_call_runs_only_on_the_callbacks_yes(self) -> None:
        root, _home, opened = wipe(self)
        mark = root / "reflexes" / "wipe" / "state" / "ran"
        decision = opened.decide("erase the work notes")
        self.assertEqual((decision.outcome, decision.call), ("confirm", 'wipe folder="work"'))
        self.assertIn({"type": "destructive"}, json.loads(decision.json)["because"])
        self.assertEqual(decision.question.text, "Erase the work notes?")

        no = Answers(yes=False)
        with self.assertRaises(DeclinedError) as refused:
            opened.run(decision, no)
        self.assertEqual((refused.exception.exit, len(no.asked)), (Exit.DECLINED, 1))
        self.assertEqual(no.asked[0].text, "Erase the work notes?")
        self.assertIsNotNone(no.asked[0].own)
        self.assertFalse(mark.exists(), "the body ran on a no")

        nobody = Answers(yes=True, present=False)
        with self.assertRaises(NeedsPersonError) as refused:
            opened.run(decision, nobody)
        self.assertEqual((refused.exception.exit, len(nobody.asked)), (Exit.NEEDS_PERSON, 0))
        self.assertFalse(mark.exists(), "the body ran with nobody to ask")

        # Only `True` is a yes: a truthy answer of another type is refused, and nothing runs.
        truthy = Answers(yes="yes")
        with self.assertRaises(TypeError):
            opened.run(decision, truthy)
        self.assertEqual(len(truthy.asked), 1)
        self.assertFalse(mark.exists(), "the body ran on a truthy str")

        yes = Answers(yes=True)
        ran = opened.run(decision, yes)
        self.assertEqual((ran.text, len(yes.asked)), ("erased work", 1))
        self.assertEqual(mark.read_text(), "work")

    def test_a_confirm_that_raises_is_a_no_and_its_exception_is_raised(self) -> None:
        root, _home, opened = wipe(self)
        decision = opened.decide("erase the work notes")

        class Raises:
            def confirm(self, question: Question) -> bool:
                raise RuntimeError("the person fell over")

            def ask(self, missing: dict) -> None:
                return None

        with self.assertRaisesRegex(RuntimeError, "the person fell over"):
            opened.run(decision, Raises())
        self.assertFalse((root / "reflexes" / "wipe" / "state" / "ran").exists())

    def test_a_decision_runs_only_in_the_evoke_that_made_it(self) -> None:
        _root, _home, opened = wipe(self)
        _other_root, _other_home, other = wipe(self)
        decision = other.decide("erase the work notes")
        yes = Answers(yes=True)
        with self.assertRaises(UsageError) as refused:
            opened.run(decision, yes)
        self.assertEqual((refused.exception.exit, len(yes.asked)), (Exit.USAGE, 0))
        # Only a Decision is run: nothing else passes for one.
        with self.assertRaises(TypeError):
            opened.run(json.loads(decision.json), yes)  # type: ignore[arg-type]
        self.assertEqual(len(yes.asked), 0)


class Errors(unittest.TestCase):
    def test_an_untrusted_project_is_refused_with_its_fix(self) -> None:
        home = temp_dir(self)
        with self.assertRaises(EvokeError) as refused:
            Evoke.open(HOME_PROJECT, home=home)
        e = refused.exception
        self.assertIsInstance(e, NeedsPersonError)
        self.assertEqual((e.exit, int(e.exit), e.exit.name), (Exit.NEEDS_PERSON, 3, "NEEDS_PERSON"))
        self.assertEqual(e.fix, "evoke trust")
        self.assertIn("not trusted", e.message)
        self.assertIn("(fix: evoke trust)", str(e))

    def test_a_sentence_that_fails_closed_is_refused_with_class_6(self) -> None:
        _root, _home, opened = wipe(self)
        with self.assertRaises(evoke.RefusedError) as refused:
            opened.decide("a sentence the recording never heard")
        self.assertEqual(refused.exception.exit, Exit.REFUSED)

    def test_every_exit_class_has_its_own_exception(self) -> None:
        for exit in Exit:
            if exit is Exit.DONE:
                continue
            made = evoke._errors._error(int(exit), "said", None, [])
            self.assertIsInstance(made, EvokeError)
            self.assertIsNot(type(made), EvokeError, exit)
            self.assertEqual((made.exit, made.message, made.fix, str(made)), (exit, "said", None, "said"))
            self.assertEqual(made.diagnostics, [])

    def test_a_manifest_that_does_not_read_is_a_usage_error_with_its_faults(self) -> None:
        with self.assertRaises(UsageError) as refused:
            Reflex("greet", f"run = 'greet.mjs'\n{GREET}", lambda call: "hi")
        self.assertEqual(refused.exception.exit, Exit.USAGE)
        fault = refused.exception.diagnostics[0]
        self.assertEqual((fault["key"], fault["line"], fault["fix"]), ("run", 1, "remove `run`"), fault)
        with self.assertRaises(UsageError):
            Reflex("Not A Name", GREET, lambda call: "hi")
        with self.assertRaises(TypeError):
            Reflex("greet", GREET, "not callable")  # type: ignore[arg-type]


class InCode(unittest.TestCase):
    def open_greet(self, body: object) -> Evoke:
        home = temp_dir(self)
        recording = home / "recording.toml"
        recording.write_text(GREET_RECORDING)
        return Evoke.in_code([Reflex("greet", GREET, body)], recording=recording, home=home)  # type: ignore[arg-type]

    def test_a_reflex_handed_as_code_runs_with_the_call(self) -> None:
        calls: list[dict] = []

        def greet(call: dict) -> dict:
            calls.append(call)
            return {"text": f"hello, {call['args']['who']}", "data": {"greeted": [call["args"]["who"]], "n": 1.5}}

        opened = self.open_greet(greet)
        decision = opened.decide("say hello to dana")
        self.assertEqual((decision.outcome, decision.call), ("run", 'greet who="dana"'))
        ran = opened.run(decision, Answers(yes=True))
        self.assertEqual((ran.succeeded, ran.text), (True, "hello, dana"))
        self.assertEqual(ran.data, {"greeted": ["dana"], "n": 1.5})
        self.assertEqual(calls, [{"args": {"who": "dana"}, "input": "say hello to dana", "config": {}}])

    def test_a_body_that_returns_a_str_is_its_text(self) -> None:
        opened = self.open_greet(lambda call: "hi")
        ran = opened.run(opened.decide("say hello to dana"), Answers(yes=True))
        self.assertEqual((ran.text, ran.data), ("hi", None))

    def test_a_body_that_raises_is_a_failed_run_with_its_frames(self) -> None:
        opened = self.open_greet(broken_lamp)
        ran = opened.run(opened.decide("say hello to dana"), Answers(yes=True))
        self.assertFalse(ran.succeeded)
        self.assertEqual((ran.text, ran.failure), (None, "ValueError: no lamp for dana"))
        self.assertTrue(ran.frames, ran.json)
        self.assertRegex(ran.frames[0], r"^at broken_lamp \(.*test_sdk\.py:\d+\)$")
        self.assertEqual(json.loads(ran.json)["frames"], ran.frames)

    def test_a_body_that_returns_what_json_cannot_hold_fails(self) -> None:
        opened = self.open_greet(lambda call: {"text": "hi", "data": object()})
        ran = opened.run(opened.decide("say hello to dana"), Answers(yes=True))
        self.assertFalse(ran.succeeded)
        self.assertIn("TypeError", ran.failure or "")
        opened = self.open_greet(lambda call: 42)
        ran = opened.run(opened.decide("say hello to dana"), Answers(yes=True))
        self.assertIn("must return a str", ran.failure or "")

    def test_an_ask_takes_the_persons_answer_from_the_choices(self) -> None:
        opened = self.open_greet(lambda call: f"hello, {call['args']['who']}")
        decision = opened.decide("say hello")
        self.assertEqual(decision.outcome, "ask")
        self.assertEqual([m["arg"] for m in decision.missing], ["who"])

        class Picks:
            def __init__(self, answer: object) -> None:
                self.answer = answer
                self.asked: list[dict] = []

            def confirm(self, question: Question) -> bool:
                return True

            def ask(self, missing: dict) -> object:
                self.asked.append(missing)
                return self.answer

        sam = Picks("sam")
        self.assertEqual(opened.run(decision, sam).text, "hello, sam")
        self.assertEqual(sam.asked[0]["ask"], "Who should be greeted?")
        # A listed choice's number is an answer too.
        self.assertEqual(opened.run(decision, Picks(1)).text, "hello, dana")
        with self.assertRaises(DeclinedError):
            opened.run(decision, Picks(None))
        with self.assertRaises(DeclinedError) as refused:
            opened.run(decision, Picks("nobody"))
        self.assertIn("nobody", refused.exception.message)

    def test_an_interrupt_in_a_body_is_raised_once_the_run_is_over(self) -> None:
        def interrupted(call: dict) -> str:
            raise KeyboardInterrupt()

        opened = self.open_greet(interrupted)
        with self.assertRaises(KeyboardInterrupt):
            opened.run(opened.decide("say hello to dana"), Answers(yes=True))
        self.assertIn("failed: KeyboardInterrupt", opened.why())

    def test_a_reflex_handed_as_code_is_decided_beside_a_projects_own(self) -> None:
        root, home, _opened = wipe(self)
        recording = root / "beside.toml"
        recording.write_text(BESIDE_RECORDING)
        greet = Reflex("greet", GREET, lambda call: f"hello, {call['args']['who']}")
        opened = Evoke.open(root, recording=recording, home=home, reflexes=[greet])
        ran = opened.run(opened.decide("say hello to dana"), Answers(yes=True))
        self.assertEqual(ran.text, "hello, dana")
        self.assertEqual(opened.decide("erase the work notes").call, 'wipe folder="work"')
        # A name the project installs already is refused.
        with self.assertRaises(UsageError) as refused:
            Evoke.open(root, recording=recording, home=home, reflexes=[Reflex("wipe", GREET, lambda call: "")])
        self.assertIn("installed already", refused.exception.message)


NOTE = fixture("note-code.toml")

CODE_WIPE = fixture("wipe-code.toml")

TWO_STEPS = "erase the work notes, then add a note to my home notes"


class Plans(unittest.TestCase):
    def wipe_and_note(self) -> tuple[Evoke, list[dict], Reflex, Reflex]:
        """A project built in code with a destructive `wipe` and a `note`, decided by `local`."""
        calls: list[dict] = []

        def wiped(call: dict) -> str:
            calls.append(call)
            return f"erased {call['args']['folder']}"

        def noted(call: dict) -> str:
            calls.append(call)
            return "noted"

        wipe, note = Reflex("wipe", CODE_WIPE, wiped), Reflex("note", NOTE, noted)
        return Evoke.in_code([wipe, note], home=temp_dir(self), adapter="local"), calls, wipe, note

    def test_a_plan_of_code_reflexes_runs_step_by_step_through_the_person(self) -> None:
        opened, calls, _wipe, _note = self.wipe_and_note()
        declined = opened.run_plan(opened.plan(TWO_STEPS), Answers(yes=False))
        self.assertEqual(declined.exit, Exit.DECLINED, declined.lines)
        self.assertEqual(calls, [], "a step ran on a no")

        plan = opened.plan(TWO_STEPS)
        yes = Answers(yes=True)
        ran = opened.run_plan(plan, yes)
        self.assertEqual(ran.exit, Exit.DONE, ran.lines)
        self.assertEqual([json.loads(line)["status"] for line in ran.lines], ["ran", "ran"])
        self.assertEqual([call["args"]["folder"] for call in calls], ["work", "home"])
        # The destructive step confirmed at its turn, whatever else asked.
        self.assertIn("Erase the work notes?", [question.text for question in yes.asked])
        # A plan runs once.
        self.assertTrue(plan.ran)
        with self.assertRaises(UsageError):
            opened.run_plan(plan, yes)
        with self.assertRaises(UsageError):
            opened.save(plan)
        self.assertEqual(len(calls), 2)

    def test_a_person_may_decide_with_its_evoke_while_a_call_waits_for_it(self) -> None:
        opened, calls, _wipe, _note = self.wipe_and_note()
        inner: list[str] = []

        class Checks:
            def confirm(self, question: Question) -> bool:
                # A program checking a second sentence before it answers.
                inner.append(opened.decide("add a note to my home notes").outcome)
                return True

            def ask(self, missing: dict) -> None:
                return None

        decision = opened.decide("erase the work notes")
        self.assertEqual(decision.outcome, "confirm")
        self.assertEqual(opened.run(decision, Checks()).text, "erased work")
        self.assertEqual(len(inner), 1)
        self.assertEqual([call["args"]["folder"] for call in calls], ["work"])

    def test_a_plans_callback_that_calls_its_evoke_is_a_usage_error_and_nothing_runs(self) -> None:
        opened, calls, _wipe, _note = self.wipe_and_note()

        class Reenters:
            def confirm(self, question: Question) -> bool:
                opened.decide("add a note to my home notes")
                return True

            def ask(self, missing: dict) -> None:
                return None

        with self.assertRaises(UsageError) as refused:
            opened.run_plan(opened.plan(TWO_STEPS), Reenters())
        self.assertIn("run_plan", refused.exception.fix or "")
        self.assertEqual(calls, [])

    def test_one_evoke_serves_several_python_threads_at_once(self) -> None:
        opened, calls, _wipe, _note = self.wipe_and_note()
        failures: list[BaseException] = []

        def work() -> None:
            try:
                for _ in range(3):
                    decision = opened.decide("erase the work notes")
                    with self.assertRaises(DeclinedError):
                        opened.run(decision, Answers(yes=False))
                    self.assertEqual(opened.run(decision, Answers(yes=True)).text, "erased work")
            except BaseException as e:
                # A thread's failure is the test's: it is reported once every thread is joined.
                failures.append(e)

        threads = [threading.Thread(target=work) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.assertEqual(failures, [])
        self.assertEqual(len(calls), 12)

    def test_a_plan_file_pins_a_code_reflex_by_its_item_alone(self) -> None:
        opened, _calls, wipe, note = self.wipe_and_note()
        plan = opened.plan(TWO_STEPS)
        self.assertFalse(plan.ran)
        saved = json.loads(opened.save(plan))
        self.assertEqual(saved["reflexes"], {"note": {"item": note.item}, "wipe": {"item": wipe.item}})
        self.assertTrue(wipe.item.startswith("sha256:"), wipe.item)

    def playbook_project(self) -> tuple[Path, Path, Path]:
        """The playbook transcript's project, copied where a test may trust it, with its recording."""
        root, home = temp_dir(self), temp_dir(self)
        shutil.copytree(REPO / "transcripts" / "playbook" / "project", root / "project")
        shutil.copy(REPO / "transcripts" / "playbook" / "recording.toml", root / "recording.toml")
        trust(home, root / "project")
        return root / "project", root / "recording.toml", home

    def test_a_plan_is_the_line_evoke_try_prints_and_decide_names_it(self) -> None:
        project, recording, home = self.playbook_project()
        opened = Evoke.open(project, recording=recording, home=home)
        plan = opened.plan("good night in the den")
        tried = evoke_command(home, "-C", project, "--recording", recording, "try", "--json", "good night in the den")
        self.assertEqual(without_ms(plan.json), without_ms(tried.rstrip("\n")))
        # A playbook's plan waits for the review of the whole plan.
        self.assertEqual((plan.playbook, plan.outcome, plan.input), ("good_night", "confirm", "good night in the den"))
        self.assertEqual(opened.why(), evoke_command(home, "-C", project, "--recording", recording, "why"))
        self.assertIn("good night in the den", opened.save(plan))

        with self.assertRaises(UsageError) as refused:
            opened.decide("good night in the den")
        self.assertIn("Evoke::plan", refused.exception.fix or "")
        with self.assertRaises(UsageError) as refused:
            opened.plan("turn off the den lamp")
        self.assertEqual(refused.exception.fix, "Evoke::decide")
        with self.assertRaises(UsageError):
            opened.why(99)


if __name__ == "__main__":
    unittest.main()
