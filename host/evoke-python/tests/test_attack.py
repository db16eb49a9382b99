"""The Python binding as a hostile or careless program uses it: callbacks that answer with odd types or
raise what is no Exception, bodies whose results JSON cannot hold, copies and forgeries of a decision,
threads, re-entrant calls and plans of another Evoke. Each test is a promise named for its rule, and fails
when the promise breaks.

Run with the `evoke` package installed (.ci/test-python builds and installs it)."""

from __future__ import annotations

import copy
import gc
import json
import pickle
import subprocess
import sys
import tempfile
import textwrap
import threading
import unittest
import unittest.mock
import warnings
from pathlib import Path

from evoke import (
    Decision,
    DeclinedError,
    Evoke,
    EvokeError,
    Plan,
    Question,
    RefusedError,
    Reflex,
    UsageError,
)

from test_sdk import fixture

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

WIPE = fixture("wipe-code.toml")

NOTE = fixture("note-code.toml")

RECORDING = """id = "replay"

[gate]
route = 0.5
fits  = 0.3
read  = 0.6
write = 0.8

[answers."say hello to dana"]
route        = { greet = 0.97, wipe = 0.01, none = 0.02 }
"fits.greet" = { yes = 0.95 }
"fits.wipe"  = { yes = 0.01 }
"greet.who"  = { dana = 0.97, sam = 0.02, unstated = 0.01 }

[answers."say hello"]
route        = { greet = 0.97, wipe = 0.01, none = 0.02 }
"fits.greet" = { yes = 0.95 }
"fits.wipe"  = { yes = 0.01 }
"greet.who"  = { unstated = 0.96, dana = 0.02, sam = 0.02 }

[answers."erase the work notes"]
route         = { wipe = 0.97, greet = 0.01, none = 0.02 }
"fits.wipe"   = { yes = 0.95 }
"fits.greet"  = { yes = 0.01 }
"wipe.folder" = { work = 0.97, home = 0.02, unstated = 0.01 }
"""

TWO_STEPS = "erase the work notes, then add a note to my home notes"


def temp_dir(test: unittest.TestCase) -> Path:
    """A directory removed when `test` ends."""
    made = tempfile.TemporaryDirectory()
    test.addCleanup(made.cleanup)
    return Path(made.name)


def greeting(test: unittest.TestCase, greet: object, wipe: object = None) -> Evoke:
    """A project built in code with `greet` (a read) and `wipe` (destructive), answered by the recording."""
    home = temp_dir(test)
    recording = home / "recording.toml"
    recording.write_text(RECORDING)
    wiped = wipe if wipe is not None else (lambda call: f"erased {call['args']['folder']}")
    reflexes = [Reflex("greet", GREET, greet), Reflex("wipe", WIPE, wiped)]  # type: ignore[arg-type]
    return Evoke.in_code(reflexes, recording=recording, home=home)


def wiping_and_noting(test: unittest.TestCase, calls: list[str]) -> Evoke:
    """A project built in code with `wipe` and `note`, decided by `local`; each body's folder in `calls`."""

    def body(call: dict) -> str:
        calls.append(call["args"]["folder"])
        return "done"

    reflexes = [Reflex("wipe", WIPE, body), Reflex("note", NOTE, body)]
    return Evoke.in_code(reflexes, home=temp_dir(test), adapter="local")


class Says:
    """Answers every confirm with `yes` and every ask with `answer`; counts what it was asked."""

    def __init__(self, yes: object = True, answer: object = None) -> None:
        self.yes = yes
        self.answer = answer
        self.asked: list[object] = []

    def confirm(self, question: Question) -> object:
        self.asked.append(question)
        return self.yes

    def ask(self, missing: dict) -> object:
        self.asked.append(missing)
        return self.answer


class Callbacks(unittest.TestCase):
    def test_a_confirm_that_gives_anything_but_true_is_a_type_error_and_nothing_runs(self) -> None:
        calls: list[str] = []
        opened = greeting(self, lambda call: "hi", lambda call: calls.append("wipe") or "erased")
        decision = opened.decide("erase the work notes")
        self.assertEqual(decision.outcome, "confirm")

        class Truthy:
            def __bool__(self) -> bool:
                return True

        def generator() -> object:
            yield True

        for answer in [1, "yes", "True", None, [True], Truthy(), generator(), 1.0]:
            with self.subTest(answer=answer), self.assertRaises(TypeError):
                opened.run(decision, Says(yes=answer))

        class Awaits:
            async def confirm(self, question: Question) -> bool:
                return True

            def ask(self, missing: dict) -> None:
                return None

        with warnings.catch_warnings():
            # The coroutine is never awaited, by design: Python warns of it when it is collected.
            warnings.simplefilter("ignore", RuntimeWarning)
            with self.assertRaisesRegex(TypeError, "coroutine"):
                opened.run(decision, Awaits())
            gc.collect()
        self.assertEqual(calls, [], "the destructive body ran on an answer that is not True")

    def test_a_callback_that_raises_what_is_no_exception_is_raised_as_itself(self) -> None:
        calls: list[str] = []
        opened = greeting(self, lambda call: "hi", lambda call: calls.append("wipe") or "erased")
        decision = opened.decide("erase the work notes")

        class Mine(BaseException):
            pass

        for raised in [SystemExit(3), KeyboardInterrupt(), Mine("mine"), GeneratorExit()]:

            class Raises:
                def confirm(self, question: Question, raised: BaseException = raised) -> bool:
                    raise raised

                def ask(self, missing: dict) -> None:
                    return None

            with self.subTest(raised=type(raised).__name__):
                with self.assertRaises(type(raised)) as caught:
                    opened.run(decision, Raises())
                self.assertIs(caught.exception, raised)
        self.assertEqual(calls, [])
        # The Evoke goes on after them.
        self.assertEqual(opened.run(decision, Says()).text, "erased")

    def test_an_ask_takes_only_its_choices_whatever_the_answers_type(self) -> None:
        calls: list[str] = []
        opened = greeting(self, lambda call: calls.append(call["args"]["who"]) or "hi")
        decision = opened.decide("say hello")
        self.assertEqual(decision.outcome, "ask")
        for answer in [0, 3, -1, 2**70, "nobody", "sam\x00"]:
            with self.subTest(answer=answer), self.assertRaises(DeclinedError):
                opened.run(decision, Says(answer=answer))
        for answer in [True, 1.0, b"sam", ["sam"], {"sam": 1}]:
            with self.subTest(answer=answer), self.assertRaises(TypeError):
                opened.run(decision, Says(answer=answer))
        self.assertEqual(calls, [], "a body ran on an answer not among the choices")
        self.assertEqual(opened.run(decision, Says(answer=2)).text, "hi")
        self.assertEqual(opened.run(decision, Says(answer=" SAM ")).text, "hi")
        self.assertEqual(calls, ["sam", "sam"])

    def test_a_present_that_is_no_bool_raises_and_nothing_runs(self) -> None:
        calls: list[str] = []
        opened = greeting(self, lambda call: "hi", lambda call: calls.append("wipe") or "erased")
        decision = opened.decide("erase the work notes")
        for present in [1, "no", None]:

            class Odd(Says):
                pass

            odd = Odd()
            odd.present = present  # type: ignore[attr-defined]
            with self.subTest(present=present), self.assertRaises(TypeError):
                opened.run(decision, odd)
        self.assertEqual(calls, [])

    def test_a_mock_for_a_person_confirms_nothing(self) -> None:
        calls: list[str] = []
        opened = greeting(self, lambda call: "hi", lambda call: calls.append("wipe") or "erased")
        decision = opened.decide("erase the work notes")
        for person in [unittest.mock.Mock(), unittest.mock.MagicMock(), object()]:
            with self.subTest(person=type(person).__name__), self.assertRaises((TypeError, AttributeError)):
                opened.run(decision, person)
        self.assertEqual(calls, [])


class Bodies(unittest.TestCase):
    def ran(self, body: object) -> tuple[bool, str | None, str | None]:
        opened = greeting(self, body)
        ran = opened.run(opened.decide("say hello to dana"), Says())
        return ran.succeeded, ran.text, ran.failure

    def test_a_body_whose_exception_cannot_be_printed_is_a_failed_run(self) -> None:
        class Unprintable(Exception):
            def __str__(self) -> str:
                raise RuntimeError("no words")

        def body(call: dict) -> str:
            raise Unprintable()

        succeeded, text, failure = self.ran(body)
        self.assertEqual((succeeded, text), (False, None))
        self.assertIn("Unprintable", failure or "")

    def test_what_json_cannot_hold_is_a_failed_run(self) -> None:
        nested: list = []
        for _ in range(1000):
            nested = [nested]
        for data, said in [
            ({1, 2}, "TypeError"),
            (float("nan"), "ValueError"),
            (2**70, "ValueError"),
            (nested, "nested deeper"),
            (["y" * 1024] * 2048, "more than 1048576 bytes"),
        ]:
            with self.subTest(said=said):
                succeeded, _text, failure = self.ran(lambda call, data=data: {"text": "x", "data": data})
                self.assertFalse(succeeded)
                self.assertIn(said, failure or "")
        for returned in ["\ud800", {"text": "x", "data": {"\ud800": 1}}]:
            succeeded, _text, failure = self.ran(lambda call, returned=returned: returned)
            self.assertFalse(succeeded)
            self.assertIn("UnicodeEncodeError", failure or "")

    def test_data_is_held_to_the_depth_a_json_reader_takes_and_may_share_a_list(self) -> None:
        def nested(levels: int) -> list:
            data: list = []
            for _ in range(levels - 1):
                data = [data]
            return data

        # serde_json reads back 127 levels; past 128 the binding refuses the data before the library sees it.
        self.assertEqual(self.ran(lambda call: {"text": "x", "data": nested(127)}), (True, "x", None))
        for levels, said in [(128, "the body returned data nested deeper"), (129, "ValueError: data nested deeper")]:
            with self.subTest(levels=levels):
                succeeded, _text, failure = self.ran(lambda call, levels=levels: {"text": "x", "data": nested(levels)})
                self.assertFalse(succeeded)
                self.assertIn(said, failure or "")
        cyclic: dict = {}
        cyclic["a"] = [1, {"b": cyclic}]
        succeeded, _text, failure = self.ran(lambda call: {"text": "x", "data": cyclic})
        self.assertFalse(succeeded)
        self.assertIn("ValueError: the dict contains itself", failure or "")
        # The same list twice, side by side, holds no cycle.
        shared = [1]
        opened = greeting(self, lambda call: {"text": "x", "data": [shared, shared, (shared, {"s": shared})]})
        ran = opened.run(opened.decide("say hello to dana"), Says())
        self.assertEqual(ran.data, [[1], [1], [[1], {"s": [1]}]])

    def test_a_body_returning_a_coroutine_or_a_generator_is_a_failed_run(self) -> None:
        async def coroutine(call: dict) -> str:
            return "hi"

        def generator(call: dict) -> object:
            yield "hi"

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            for body, kind in [(coroutine, "coroutine"), (generator, "generator")]:
                succeeded, _text, failure = self.ran(body)
                self.assertFalse(succeeded)
                self.assertIn(f"returned a {kind}", failure or "")
            gc.collect()

    def test_a_body_keeps_its_control_characters_and_unicode(self) -> None:
        text = "a\x00b\x1b[31m\u2028é🙂"
        opened = greeting(self, lambda call: {"text": text, "data": {"text": text}})
        ran = opened.run(opened.decide("say hello to dana"), Says())
        self.assertEqual((ran.text, ran.data), (text, {"text": text}))
        self.assertEqual(json.loads(ran.json)["result"]["text"], text)

    def test_an_exit_in_a_body_fails_the_run_and_is_raised_after_it(self) -> None:
        for raised in [SystemExit(0), GeneratorExit()]:

            def body(call: dict, raised: BaseException = raised) -> str:
                raise raised

            opened = greeting(self, body)
            with self.subTest(raised=type(raised).__name__):
                with self.assertRaises(type(raised)):
                    opened.run(opened.decide("say hello to dana"), Says())
                self.assertIn(f"failed: {type(raised).__name__}", opened.why())
                # Raised once: the next run of the same Evoke is a run of its own.
                self.assertEqual(opened.run(opened.decide("erase the work notes"), Says()).text, "erased work")

    def test_garbage_collected_while_a_body_runs_the_run_ends_with_its_result(self) -> None:
        held: dict[str, Evoke] = {}

        def body(call: dict) -> dict:
            # The program lets go of its Evoke while the Evoke runs this body.
            held.clear()
            gc.collect()
            return {"text": "hi", "data": [list(range(10))] * 10}

        held["evoke"] = greeting(self, body)
        opened = held["evoke"]
        decision = opened.decide("say hello to dana")
        del opened
        ran = held["evoke"].run(decision, Says())
        self.assertEqual(ran.text, "hi")
        gc.collect()
        self.assertEqual(ran.data, [list(range(10))] * 10)

    def test_a_body_may_run_its_evoke_again_from_run(self) -> None:
        depth: list[int] = []
        opened: Evoke

        def body(call: dict) -> str:
            depth.append(1)
            if len(depth) > 1:
                return "inner"
            return "outer, " + opened.run(opened.decide("say hello to dana"), Says()).text

        opened = greeting(self, body)
        self.assertEqual(opened.run(opened.decide("say hello to dana"), Says()).text, "outer, inner")


class Forgeries(unittest.TestCase):
    def test_no_copy_pickle_subclass_or_new_decision_exists(self) -> None:
        opened = greeting(self, lambda call: "hi")
        decision = opened.decide("say hello to dana")
        for make in [lambda: copy.copy(decision), lambda: copy.deepcopy(decision), lambda: pickle.dumps(decision)]:
            with self.assertRaises(TypeError):
                make()
        for kind in [Decision, Plan, Evoke]:
            with self.assertRaises(TypeError):
                kind()
            with self.assertRaises(TypeError):
                type("Forged", (kind,), {})
        with self.assertRaises(AttributeError):
            decision.outcome = "run"  # type: ignore[misc]
        with self.assertRaises(TypeError):
            opened.run(json.loads(decision.json), Says())  # type: ignore[arg-type]

    def test_what_a_decision_hands_out_is_a_copy(self) -> None:
        calls: list[str] = []
        opened = greeting(self, lambda call: "hi", lambda call: calls.append(call["args"]["folder"]) or "erased")
        decision = opened.decide("erase the work notes")
        decision.values["folder"] = "home"
        self.assertEqual(decision.values, {"folder": "work"})
        asked = opened.decide("say hello")
        asked.missing[0]["choices"]["options"]["nobody"] = "forged"
        self.assertNotIn("nobody", asked.missing[0]["choices"]["options"])
        opened.run(decision, Says())
        self.assertEqual(calls, ["work"])

    def test_a_plan_saved_by_another_evoke_is_refused_and_kept(self) -> None:
        calls: list[str] = []
        opened, other = wiping_and_noting(self, calls), wiping_and_noting(self, calls)
        plan = other.plan(TWO_STEPS)
        with self.assertRaises(UsageError):
            opened.save(plan)
        self.assertFalse(plan.ran)
        self.assertIn("erase the work notes", other.save(plan))

    def test_wrong_arguments_to_every_verb_are_type_errors(self) -> None:
        opened = greeting(self, lambda call: "hi")
        decision = opened.decide("say hello to dana")
        for call in [
            lambda: opened.decide(None),  # type: ignore[arg-type]
            lambda: opened.decide(b"say hello to dana"),  # type: ignore[arg-type]
            lambda: opened.plan(42),  # type: ignore[arg-type]
            lambda: opened.run(None, Says()),  # type: ignore[arg-type]
            lambda: opened.run(decision),  # type: ignore[call-arg]
            lambda: opened.run_plan(decision, Says()),  # type: ignore[arg-type]
            lambda: opened.save(decision),  # type: ignore[arg-type]
            lambda: opened.why("1"),  # type: ignore[arg-type]
            lambda: opened.why(1.0),  # type: ignore[arg-type]
            lambda: Evoke.in_code(None),  # type: ignore[arg-type]
            lambda: Evoke.in_code("greet"),  # type: ignore[arg-type]
            lambda: Evoke.open(None),  # type: ignore[arg-type]
            lambda: Evoke.open(".", adapter="local"),  # type: ignore[call-arg]
            lambda: Reflex("greet", GREET, None),  # type: ignore[arg-type]
        ]:
            with self.assertRaises(TypeError):
                call()
        with self.assertRaises(OverflowError):
            opened.why(-1)
        with self.assertRaises(UsageError):
            opened.why(0)
        for sentence in ["", "say hello\x00 to dana", "hello " * 1000]:
            with self.assertRaises(RefusedError):
                opened.decide(sentence)
        with self.assertRaises(UnicodeEncodeError):
            opened.decide("say hello to \ud800")
        # Each refusal left the Evoke as it was.
        self.assertEqual(opened.run(decision, Says()).text, "hi")

    def test_every_refusal_of_open_is_an_evoke_error_with_its_fix(self) -> None:
        with self.assertRaises(UsageError) as refused:
            Evoke.open(temp_dir(self))
        self.assertIn("evoke.toml", refused.exception.fix or "")
        with self.assertRaises(UsageError) as refused:
            Evoke.in_code([], home=temp_dir(self), adapter="../../bin/sh")
        self.assertIsNotNone(refused.exception.fix)
        reflex = Reflex("greet", GREET, lambda call: "")
        with self.assertRaises(UsageError) as refused:
            Evoke.in_code([reflex, reflex], home=temp_dir(self), adapter="local")
        self.assertIn("installed already", refused.exception.message)
        with self.assertRaises(UsageError):
            Reflex("gr\x00eet", GREET, lambda call: "")


class Threads(unittest.TestCase):
    def test_threads_that_fail_and_succeed_in_one_evoke_each_get_their_own_result(self) -> None:
        def body(call: dict) -> str:
            if threading.current_thread().name.startswith("fails"):
                raise ValueError(threading.current_thread().name)
            return threading.current_thread().name

        opened = greeting(self, body)
        decision = opened.decide("say hello to dana")
        said: dict[str, tuple[bool, str | None]] = {}

        def work() -> None:
            for _ in range(5):
                ran = opened.run(decision, Says())
                said[threading.current_thread().name] = (ran.succeeded, ran.text or ran.failure)

        names = [f"{kind}-{n}" for kind in ("fails", "returns") for n in range(3)]
        threads = [threading.Thread(target=work, name=name) for name in names]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for name in names:
            expected = (False, f"ValueError: {name}") if name.startswith("fails") else (True, name)
            self.assertEqual(said.get(name), expected, name)

    def test_one_plan_run_from_several_threads_at_once_runs_once(self) -> None:
        calls: list[str] = []
        opened = wiping_and_noting(self, calls)
        plan = opened.plan(TWO_STEPS)
        start = threading.Barrier(4)
        ended: list[object] = []

        def work() -> None:
            start.wait()
            try:
                ended.append(opened.run_plan(plan, Says()).exit)
            except UsageError as e:
                ended.append(e.exit)

        threads = [threading.Thread(target=work) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.assertEqual(sorted(int(exit) for exit in ended), [0, 2, 2, 2])  # type: ignore[call-overload]
        self.assertEqual(calls, ["work", "home"])


# Data that would crash Python, interrupts across threads, refused plans and calls nested without end:
# what a careless body or callback does here ends in a failed run or an error, never a crash or a lost plan.

# The child a crash cannot take the suite down with: it runs one body whose data is `DATA`, in the home
# its first argument names.
CHILD = """
import sys
from pathlib import Path
from evoke import Evoke, Reflex

def body(call):
    DATA
    return {"text": "x", "data": data}

home = Path(sys.argv[1])
(home / "recording.toml").write_text(RECORDING)
opened = Evoke.in_code([Reflex("greet", GREET, body), Reflex("wipe", WIPE, lambda call: "")],
                       recording=home / "recording.toml", home=home)
class Says:
    def confirm(self, question):
        return True
    def ask(self, missing):
        return None
ran = opened.run(opened.decide("say hello to dana"), Says())
print(ran.succeeded, ran.failure)
"""


class Hazards(unittest.TestCase):
    def test_a_body_returning_cyclic_or_deep_data_is_a_failed_run_not_a_crash(self) -> None:
        for data, said in [
            ("data = []; data.append(data)", "ValueError: the list contains itself"),
            ("data = {}\n    for _ in range(5000): data = {'d': data}", "ValueError: data nested deeper than 128"),
        ]:
            source = CHILD.replace("DATA", data)
            source = f"RECORDING = {RECORDING!r}\nGREET = {GREET!r}\nWIPE = {WIPE!r}\n" + textwrap.dedent(source)
            with self.subTest(data=data):
                home = temp_dir(self)
                child = subprocess.run(
                    [sys.executable, "-c", source, str(home)], capture_output=True, text=True, timeout=120
                )
                self.assertEqual(child.returncode, 0, f"the process died: {child.returncode} {child.stderr}")
                self.assertTrue(child.stdout.startswith(f"False {said}"), child.stdout)

    def test_an_interrupt_in_a_body_is_raised_by_its_own_run_not_another_threads(self) -> None:
        window, go_on = threading.Event(), threading.Event()

        class Interrupt(KeyboardInterrupt):
            def __str__(self) -> str:
                # The binding prints the interrupt once it is kept: this holds that moment open, so the
                # other thread's run ends inside it, as it may by chance in any program.
                window.set()
                go_on.wait(30)
                return "interrupted"

        def interrupted(call: dict) -> str:
            raise Interrupt()

        opened = greeting(self, interrupted)
        greet, wipe = opened.decide("say hello to dana"), opened.decide("erase the work notes")
        first: list[object] = []

        def interrupted_run() -> None:
            try:
                first.append(opened.run(greet, Says()))
            except BaseException as e:
                first.append(e)

        thread = threading.Thread(target=interrupted_run)
        thread.start()
        try:
            self.assertTrue(window.wait(30))
            try:
                second: object = opened.run(wipe, Says())
            except BaseException as e:
                second = e
        finally:
            go_on.set()
            thread.join()
        self.assertNotIsInstance(second, BaseException, f"the wipe's run raised {second!r}")
        self.assertIsInstance(first[0], Interrupt, f"the interrupted run returned {first[0]!r}")

    def test_a_plan_refused_for_another_evoke_is_not_spent(self) -> None:
        calls: list[str] = []
        opened, other = wiping_and_noting(self, calls), wiping_and_noting(self, calls)
        plan = other.plan(TWO_STEPS)
        with self.assertRaises(UsageError):
            opened.run_plan(plan, Says())
        self.assertEqual(calls, [])
        self.assertFalse(plan.ran, "a plan that never ran is spent")
        self.assertEqual(other.run_plan(plan, Says()).exit, 0)

    def test_a_run_plan_refused_inside_a_plans_callback_leaves_the_plan_to_run(self) -> None:
        calls: list[str] = []
        opened = wiping_and_noting(self, calls)
        outer, later = opened.plan(TWO_STEPS), opened.plan(TWO_STEPS)
        refused: list[BaseException] = []

        class Reenters(Says):
            def confirm(self, question: Question) -> object:
                if not refused:
                    try:
                        opened.run_plan(later, Says())
                    except UsageError as e:
                        refused.append(e)
                return True

        self.assertEqual(opened.run_plan(outer, Reenters()).exit, 0)
        self.assertEqual(len(refused), 1)
        self.assertFalse(later.ran, "a plan that never ran is spent")
        self.assertEqual(opened.run_plan(later, Says()).exit, 0)

    def test_a_plan_refused_while_another_run_holds_its_journal_is_not_spent(self) -> None:
        # The refusal's fix says to run the plan again once the other run ends, and so the plan is kept.
        calls: list[str] = []
        opened = wiping_and_noting(self, calls)
        first, second = opened.plan(TWO_STEPS), opened.plan(TWO_STEPS)
        entered, go_on = threading.Event(), threading.Event()

        class Holds(Says):
            def confirm(self, question: Question) -> object:
                entered.set()
                go_on.wait(30)
                return True

        ended: list[object] = []
        thread = threading.Thread(target=lambda: ended.append(opened.run_plan(first, Holds()).exit))
        thread.start()
        try:
            self.assertTrue(entered.wait(30))
            with self.assertRaises(RefusedError):
                opened.run_plan(second, Says())
        finally:
            go_on.set()
            thread.join()
        self.assertEqual(ended, [0])
        self.assertFalse(second.ran, "a plan that never ran is spent")

    def test_a_plans_callback_cannot_run_a_decision_of_its_evoke(self) -> None:
        calls: list[str] = []
        opened = wiping_and_noting(self, calls)
        decided = opened.decide("erase the work notes")
        inner: list[object] = []

        class Reenters(Says):
            def confirm(self, question: Question) -> object:
                if not inner:
                    try:
                        inner.append(opened.run(decided, Says()))
                    except EvokeError as e:
                        inner.append(e)
                return True

        self.assertEqual(opened.run_plan(opened.plan(TWO_STEPS), Reenters()).exit, 0)
        self.assertIsInstance(inner[0], UsageError, f"the inner run returned {inner[0]!r}")
        self.assertEqual(calls, ["work", "home"], "the destructive body ran again inside the plan")

    def test_a_body_that_runs_its_evoke_again_without_end_fails_its_run_not_the_process(self) -> None:
        # Each nesting of `run` in a body polls the Rust library's decide and run on the caller's stack
        # (block_on in host/evoke/src/sdk/open.rs); near a depth of 420 that stack ends before Python's
        # recursion limit of 1000 can raise RecursionError, and the process dies of SIGSEGV.
        source = f"RECORDING = {RECORDING!r}\nGREET = {GREET!r}\nWIPE = {WIPE!r}\n" + textwrap.dedent(
            """
            import sys
            from pathlib import Path
            from evoke import Evoke, Reflex

            class Says:
                def confirm(self, question):
                    return True
                def ask(self, missing):
                    return None

            def body(call):
                return opened.run(opened.decide("say hello to dana"), Says()).text

            home = Path(sys.argv[1])
            (home / "recording.toml").write_text(RECORDING)
            opened = Evoke.in_code([Reflex("greet", GREET, body), Reflex("wipe", WIPE, lambda call: "")],
                                   recording=home / "recording.toml", home=home)
            try:
                print("ran", opened.run(opened.decide("say hello to dana"), Says()).succeeded)
            except RecursionError:
                print("raised RecursionError")
            """
        )
        child = subprocess.run(
            [sys.executable, "-c", source, str(temp_dir(self))], capture_output=True, text=True, timeout=300
        )
        self.assertEqual(child.returncode, 0, f"the process died: {child.returncode} {child.stderr[-2000:]}")
        self.assertRegex(child.stdout, r"^(ran False|raised RecursionError)")


if __name__ == "__main__":
    unittest.main()
